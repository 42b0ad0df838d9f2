package manifests

import (
	"path/filepath"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
)

// registries.conf files on disk: the agent installer's mirror/registries.conf
// (installer pkg/asset/agent/mirror/registriesconf.go, read next to
// install-config.yaml), or any containers-registries.conf(5) a repository
// keeps. They are TOML, not manifests: each is read as one object of the
// pseudo-kind RegistriesConf whose field "registries.conf" holds the text,
// so the rules on registries.conf content see it at its file and line.

// KindRegistriesConf and APIVersionRegistriesConf name a registries.conf file
// read as an object (siteforge's names: the file has no apiVersion or kind).
const (
	KindRegistriesConf       = "RegistriesConf"
	APIVersionRegistriesConf = "containers/v2" // containers-registries.conf(5) version 2
	registriesConfFileName   = "registries.conf"
)

// IsRegistriesConf reports whether a file is read as a registries.conf.
func IsRegistriesConf(name string) bool { return filepath.Base(name) == registriesConfFileName }

// ReadRegistriesConf reads a registries.conf file as one object. The content
// is not checked here: the rules ask containers/image whether it loads.
func ReadRegistriesConf(name string, data []byte) ([]*Object, diag.List) {
	if !utf8.Valid(data) || strings.IndexByte(string(data), 0) >= 0 {
		return nil, diag.List{{Pos: diag.Position{File: name, Line: 1, Col: 1}, Message: "not UTF-8 text"}}
	}
	text := string(diag.LoneCRToLF(data))
	root := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: 1, Column: 1, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: registriesConfFileName, Line: 1, Column: 1},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: text, Style: yaml.LiteralStyle, Line: 1, Column: 1},
	}}
	raw, err := yaml.Marshal(root)
	if err != nil {
		return nil, diag.List{{Pos: diag.Position{File: name, Line: 1, Col: 1}, Message: "cannot re-encode: " + err.Error()}}
	}
	name2 := filepath.ToSlash(name)
	return []*Object{{File: name, APIVersion: APIVersionRegistriesConf, Kind: KindRegistriesConf, Name: name2, Raw: raw, root: eagerRoot(root)}}, nil
}

// RegistriesConfText is registries.conf content held by an object, with where
// its lines are.
type RegistriesConfText struct {
	Obj *Object
	// Path is the field holding the text (registries.conf of a RegistriesConf
	// file; data.registries.conf of a ConfigMap).
	Path []string
	Text string
	// From says what reads it, for messages.
	From string
	// firstLine is the file line of the text's first line, 0 when the text
	// is a quoted or plain scalar whose lines do not map to the file's.
	firstLine, col int
}

// RegistriesConfTexts lists the registries.conf content among objs that an
// installer reads: registries.conf files, and the registries.conf key of
// ConfigMaps (assisted-service's mirror registry ConfigMap, referenced by
// AgentServiceConfig or a cluster's mirrorRegistryRef; assisted-service
// internal/controller/controllers/mirrorregistry/mirror_registry_parser.go
// RegistryConfKey). The one reader of that content.
func RegistriesConfTexts(objs []*Object) []RegistriesConfText {
	var out []RegistriesConfText
	for _, o := range objs {
		switch {
		case o.Kind == KindRegistriesConf && o.APIVersion == APIVersionRegistriesConf:
			out = append(out, RegistriesConfText{Obj: o, Path: []string{registriesConfFileName}, Text: o.Root().Content[1].Value,
				From: "the agent installer reads " + platform.AgentRegistriesConfAssetPath + " next to install-config.yaml", firstLine: 1, col: 1})
		case o.Kind == "ConfigMap" && o.APIVersion == "v1":
			n := child(child(o.Root(), "data"), platform.AssistedRegistriesConfKey)
			if n == nil || n.Kind != yaml.ScalarNode {
				continue
			}
			t := RegistriesConfText{Obj: o, Path: []string{"data", platform.AssistedRegistriesConfKey}, Text: n.Value, From: "assisted-service mirror registry ConfigMap"}
			if n.Style == yaml.LiteralStyle {
				// A literal block scalar keeps its lines: the text starts on the
				// line after the indicator (column 1: the block's indentation is
				// not kept by the parser).
				t.firstLine, t.col = n.Line+1, 1
			}
			out = append(out, t)
		}
	}
	return out
}

// AtLine returns the object to report on for a 1-based line of the text, and
// the field path to pass: the same object (kind, name, file: suppressions
// still apply) placed at that line when the lines map to the file's, else
// the object itself and the field holding the text.
func (t RegistriesConfText) AtLine(line int) (*Object, []string) {
	if t.firstLine == 0 || line < 1 {
		return t.Obj, t.Path
	}
	at := *t.Obj
	at.root = eagerRoot(&yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: t.firstLine + line - 1, Column: t.col})
	return &at, nil
}
