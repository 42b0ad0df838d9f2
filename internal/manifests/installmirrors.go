package manifests

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"go.podman.io/image/v5/docker/reference"
	yaml "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/upstream"
)

// Install-time mirrors: install-config imageDigestSources (4.14+) and the
// deprecated imageContentSources, read as the mirror objects the installer
// creates from them, with the positions of the install-config's fields.

// Install-config mirror fields (installer pkg/types/installconfig.go
// InstallConfig.ImageDigestSources, DeprecatedImageContentSources).
const (
	FieldImageDigestSources  = "imageDigestSources"
	FieldImageContentSources = "imageContentSources"
)

// InstallerOrigin tells which install-config field a mirror object the
// installer creates comes from.
type InstallerOrigin struct {
	// Config is the install-config.
	Config *Object
	// Field is FieldImageDigestSources (one ImageDigestMirrorSet, entry i
	// from entry i) or FieldImageContentSources (one
	// ImageContentSourcePolicy per entry, Index its entry).
	Field string
	Index int
}

// Path is the install-config field path of a field of the object's entry
// (entry: the index in the object's list; field: source, mirrors, an index,
// mirrorSourcePolicy).
func (o InstallerOrigin) Path(entry int, field ...string) []string {
	i := entry
	if o.Field == FieldImageContentSources {
		i = o.Index
	}
	out := []string{o.Field, strconv.Itoa(i)}
	for _, f := range field {
		if f == "mirrorSourcePolicy" {
			f = "sourcePolicy"
		}
		out = append(out, f)
	}
	return out
}

// InstallerRejection is an install-config mirror entry the installer refuses,
// so that `openshift-install` stops before creating any manifest.
type InstallerRejection struct {
	Config *Object
	// Path is the field in the install-config (imageDigestSources, 0,
	// mirrors, 1); Value its value ("" for the both-fields error).
	Path  []string
	Value string
	// Source is true when the value is a source (else a mirror).
	Source bool
	Err    error
}

// ErrBothInstallMirrorFields is the installer's refusal of both fields at
// once (installer pkg/types/validation/installconfig.go ValidateInstallConfig).
var ErrBothInstallMirrorFields = errors.New("cannot set imageContentSources and imageDigestSources at the same time")

// ValidateInstallerRepository checks a source or mirror as the installer
// does: a canonical repository name without tag or digest, or a bare host
// (with an optional port) that is an IP address or a DNS-1123 subdomain.
// Follows installer pkg/types/validation/installconfig.go
// validateNamedRepository (containers/image docker/reference ParseNamed,
// then pkg/validate Host for a name that is not canonical); the error texts
// are the installer's.
func ValidateInstallerRepository(r string) error {
	ref, err := reference.ParseNamed(r)
	if err != nil {
		if errors.Is(err, reference.ErrNameNotCanonical) {
			host, _, splitErr := net.SplitHostPort(r)
			if splitErr != nil {
				host = r
			}
			if err := installerHost(host); err != nil {
				return fmt.Errorf("the repository provided is invalid: %w", err)
			}
			return nil
		}
		return fmt.Errorf("failed to parse: %w", err)
	}
	if !reference.IsNameOnly(ref) {
		return errors.New("must be repository--not reference")
	}
	return nil
}

// installerHost is installer pkg/validate Host: an IP address, or a
// DNS-1123 subdomain.
func installerHost(v string) error {
	if net.ParseIP(v) != nil {
		return nil
	}
	if msgs := validation.IsDNS1123Subdomain(v); len(msgs) > 0 {
		return errors.New(strings.Join(msgs, "; "))
	}
	return nil
}

// installerMirrors returns the mirror objects the installer creates from an
// install-config's mirror fields: ImageDigestMirrorSet "image-digest-mirror"
// from imageDigestSources (installer pkg/asset/manifests/imagedigestmirrorset.go
// ConvertImageDigestMirrorSet: one entry per source entry, sourcePolicy as
// mirrorSourcePolicy), one ImageContentSourcePolicy "image-policy-<i>" per
// imageContentSources entry. The objects' fields sit at the positions of the
// install-config fields they come from. When the installer refuses an entry
// (or both fields at once) it creates nothing: the refusals are returned
// instead of objects.
func installerMirrors(o *Object) (objs []*Object, origins map[*Object]InstallerOrigin, rejected []InstallerRejection) {
	var ic struct {
		Digest  []upstream.ImageDigestSource `json:"imageDigestSources"`
		Content []upstream.ImageDigestSource `json:"imageContentSources"`
	}
	if o.DecodeLoose(&ic) != nil || (len(ic.Digest) == 0 && len(ic.Content) == 0) {
		return nil, nil, nil
	}
	check := func(field string, list []upstream.ImageDigestSource) {
		for i, s := range list {
			if err := ValidateInstallerRepository(s.Source); err != nil {
				rejected = append(rejected, InstallerRejection{Config: o, Path: []string{field, strconv.Itoa(i), "source"}, Value: s.Source, Source: true, Err: err})
			}
			for j, m := range s.Mirrors {
				if err := ValidateInstallerRepository(m); err != nil {
					rejected = append(rejected, InstallerRejection{Config: o, Path: []string{field, strconv.Itoa(i), "mirrors", strconv.Itoa(j)}, Value: m, Err: err})
				}
			}
		}
	}
	check(FieldImageContentSources, ic.Content)
	check(FieldImageDigestSources, ic.Digest)
	if len(ic.Content) > 0 && len(ic.Digest) > 0 {
		rejected = append(rejected, InstallerRejection{Config: o, Path: []string{FieldImageContentSources}, Err: ErrBothInstallMirrorFields})
	}
	if len(rejected) > 0 {
		return nil, nil, rejected
	}
	origins = map[*Object]InstallerOrigin{}
	if len(ic.Digest) > 0 {
		var entries []*yaml.Node
		for i, s := range ic.Digest {
			at := func(f ...string) *yaml.Node {
				return o.nodeAt(append([]string{FieldImageDigestSources, strconv.Itoa(i)}, f...)...)
			}
			e := mappingNode(at(), "source", scalarNode(s.Source, at("source")), "mirrors", mirrorsNode(s.Mirrors, func(j int) *yaml.Node { return at("mirrors", strconv.Itoa(j)) }, at("mirrors")))
			if s.SourcePolicy != "" {
				e.Content = append(e.Content, scalarNode("mirrorSourcePolicy", nil), scalarNode(s.SourcePolicy, at("sourcePolicy")))
			}
			entries = append(entries, e)
		}
		spec := mappingNode(o.nodeAt(FieldImageDigestSources), "imageDigestMirrors", seqNode(o.nodeAt(FieldImageDigestSources), entries))
		d := derivedObject(o, GroupConfig, "ImageDigestMirrorSet", platform.InstallerDigestMirrorSetName, o.keyNodeAt(FieldImageDigestSources), spec)
		objs = append(objs, d)
		origins[d] = InstallerOrigin{Config: o, Field: FieldImageDigestSources}
	}
	for i, s := range ic.Content {
		at := func(f ...string) *yaml.Node {
			return o.nodeAt(append([]string{FieldImageContentSources, strconv.Itoa(i)}, f...)...)
		}
		e := mappingNode(at(), "source", scalarNode(s.Source, at("source")), "mirrors", mirrorsNode(s.Mirrors, func(j int) *yaml.Node { return at("mirrors", strconv.Itoa(j)) }, at("mirrors")))
		spec := mappingNode(at(), "repositoryDigestMirrors", seqNode(at(), []*yaml.Node{e}))
		d := derivedObject(o, GroupOperatorV1Alpha1, "ImageContentSourcePolicy", fmt.Sprintf(platform.InstallerContentSourcePolicyFormat, i), at(), spec)
		objs = append(objs, d)
		origins[d] = InstallerOrigin{Config: o, Field: FieldImageContentSources, Index: i}
	}
	return objs, origins, nil
}

// nodeAt is the node at path, or its nearest existing ancestor (for positions).
func (o *Object) nodeAt(path ...string) *yaml.Node {
	n := o.Root()
	for _, p := range path {
		next := child(n, p)
		if next == nil {
			break
		}
		n = next
	}
	return n
}

// keyNodeAt is the key node of a top-level field, else the document.
func (o *Object) keyNodeAt(key string) *yaml.Node {
	n := o.Root()
	if n != nil && n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				return n.Content[i]
			}
		}
	}
	return n
}

// derivedObject builds an object the installer creates, at the
// install-config's file and positions.
func derivedObject(from *Object, apiVersion, kind, name string, at, spec *yaml.Node) *Object {
	root := mappingNode(at,
		"apiVersion", scalarNode(apiVersion, at),
		"kind", scalarNode(kind, at),
		"metadata", mappingNode(at, "name", scalarNode(name, at)),
		"spec", spec)
	raw, _ := yaml.Marshal(root) // plain strings, maps and lists: cannot fail
	return &Object{File: from.File, Index: from.Index, APIVersion: apiVersion, Kind: kind, Name: name, Raw: raw, root: eagerRoot(root)}
}

func placed(n *yaml.Node, at *yaml.Node) *yaml.Node {
	if at != nil {
		n.Line, n.Column = at.Line, at.Column
	}
	return n
}

func scalarNode(v string, at *yaml.Node) *yaml.Node {
	return placed(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}, at)
}

func mappingNode(at *yaml.Node, kv ...any) *yaml.Node {
	n := placed(&yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}, at)
	for i := 0; i+1 < len(kv); i += 2 {
		n.Content = append(n.Content, scalarNode(kv[i].(string), nil), kv[i+1].(*yaml.Node))
	}
	return n
}

func seqNode(at *yaml.Node, items []*yaml.Node) *yaml.Node {
	return placed(&yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: items}, at)
}

func mirrorsNode(mirrors []string, at func(int) *yaml.Node, list *yaml.Node) *yaml.Node {
	items := make([]*yaml.Node, 0, len(mirrors))
	for j, m := range mirrors {
		items = append(items, scalarNode(m, at(j)))
	}
	return seqNode(list, items)
}
