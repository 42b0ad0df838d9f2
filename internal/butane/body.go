package butane

import (
	"bytes"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// Body is a Butane body built in Go: what siteforge's own generators
// (registries.conf for pre-4.13 tag mirroring, NetworkManager MTU keyfiles,
// OVS tuning, the keepalived fix) write. Callers fill it in and pass
// Body.YAML() as Config.Body; the text they never have to quote themselves.
// Anything else Butane supports (kernel_arguments, extensions, ...) can be
// written as Config.Body YAML directly.
type Body struct {
	Files []File
	Units []Unit
}

// File is a storage.files entry: a regular file with inline contents, which
// replaces whatever the image has at Path (overwrite: true, as the MCO does
// on every update anyway).
type File struct {
	Path string
	// Mode is the permission bits, e.g. 0o644 (written in octal, 0644).
	Mode     int
	Contents string
}

// Unit is a systemd.units entry.
type Unit struct {
	Name string
	// Contents is the unit file; empty for a unit that only gets drop-ins.
	Contents string
	// Enabled writes `enabled: true`; false leaves the unit's enablement
	// alone (to disable or mask a unit, write the body YAML by hand).
	Enabled bool
	Dropins []Dropin
}

// Dropin is a systemd drop-in of a unit.
type Dropin struct {
	Name     string
	Contents string
}

// YAML encodes the body as Butane YAML: files first, then units, in the
// order given; multi-line contents as literal blocks.
func (b Body) YAML() []byte {
	root := mapping()
	if len(b.Files) > 0 {
		files := &yaml.Node{Kind: yaml.SequenceNode}
		for _, f := range b.Files {
			files.Content = append(files.Content, mapping(
				"path", str(f.Path),
				"mode", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprintf("0%o", f.Mode)},
				"overwrite", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"},
				"contents", mapping("inline", text(f.Contents)),
			))
		}
		root.Content = append(root.Content, str("storage"), mapping("files", files))
	}
	if len(b.Units) > 0 {
		units := &yaml.Node{Kind: yaml.SequenceNode}
		for _, u := range b.Units {
			n := mapping("name", str(u.Name))
			if u.Enabled {
				n.Content = append(n.Content, str("enabled"), &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
			}
			if u.Contents != "" {
				n.Content = append(n.Content, str("contents"), text(u.Contents))
			}
			if len(u.Dropins) > 0 {
				dropins := &yaml.Node{Kind: yaml.SequenceNode}
				for _, d := range u.Dropins {
					dropins.Content = append(dropins.Content, mapping("name", str(d.Name), "contents", text(d.Contents)))
				}
				n.Content = append(n.Content, str("dropins"), dropins)
			}
			units.Content = append(units.Content, n)
		}
		root.Content = append(root.Content, str("systemd"), mapping("units", units))
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		// Only scalars and collections built above: encoding cannot fail.
		panic("butane: encode body: " + err.Error())
	}
	_ = enc.Close()
	if len(root.Content) == 0 {
		return nil
	}
	return buf.Bytes()
}

// mapping builds a block mapping from key, value pairs (a string key, then a
// *yaml.Node value).
func mapping(kv ...any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(kv); i += 2 {
		n.Content = append(n.Content, str(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return n
}

func str(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

// text is a string, as a literal block when it has line breaks.
func text(s string) *yaml.Node {
	n := str(s)
	if strings.Contains(s, "\n") {
		n.Style = yaml.LiteralStyle
	}
	return n
}
