//go:build release

package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// The CycloneDX 1.6 JSON format (cyclonedx/specification
// schema/bom-1.6.schema.json): the fields an SBOM of one Go binary needs.
type bom struct {
	BOMFormat    string       `json:"bomFormat"`   // "CycloneDX"
	SpecVersion  string       `json:"specVersion"` // "1.6"
	Version      int          `json:"version"`     // of this BOM: 1
	Metadata     bomMetadata  `json:"metadata"`
	Components   []component  `json:"components"`
	Dependencies []dependency `json:"dependencies"`
}

type bomMetadata struct {
	// Timestamp is the commit's time (vcs.time), not the build's: the
	// SBOM is as reproducible as the binary.
	Timestamp string    `json:"timestamp,omitempty"`
	Component component `json:"component"`
}

type component struct {
	Type       string     `json:"type"` // "application", "library"
	BOMRef     string     `json:"bom-ref"`
	Name       string     `json:"name"`
	Version    string     `json:"version,omitempty"`
	PURL       string     `json:"purl,omitempty"`
	Properties []property `json:"properties,omitempty"`
}

type property struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type dependency struct {
	Ref       string   `json:"ref"`
	DependsOn []string `json:"dependsOn"`
}

// cycloneDX is the SBOM of a binary from its build information: the
// binary (the main module at version, its Go version and build settings) and every
// module linked into it, in the order the go command records them (sorted
// by path), plus the Go standard library. A replaced module is listed as
// its replacement, which is what was built.
func cycloneDX(bi *debug.BuildInfo, p platform, version string) bom {
	// the link-time version where the go command stamped none (a linked
	// git worktree)
	v := bi.Main.Version
	if (v == "" || v == "(devel)") && version != "" {
		v = version
	}
	app := component{
		Type:    "application",
		Name:    bi.Main.Path,
		Version: v,
		PURL:    purl(bi.Main.Path, v),
		Properties: []property{
			{Name: "siteforge:binary", Value: p.binary()},
			{Name: "siteforge:package", Value: bi.Path},
			{Name: "siteforge:go", Value: bi.GoVersion},
		},
	}
	app.BOMRef = app.PURL
	for _, s := range bi.Settings {
		app.Properties = append(app.Properties, property{Name: "siteforge:build:" + s.Key, Value: s.Value})
	}
	stdlib := component{
		Type:    "library",
		Name:    "stdlib",
		Version: bi.GoVersion,
		PURL:    purl("stdlib", strings.TrimPrefix(bi.GoVersion, "go")),
	}
	stdlib.BOMRef = stdlib.PURL
	b := bom{
		BOMFormat:   "CycloneDX",
		SpecVersion: "1.6",
		Version:     1,
		Metadata:    bomMetadata{Timestamp: setting(bi, "vcs.time"), Component: app},
		Components:  []component{stdlib},
	}
	deps := dependency{Ref: app.BOMRef, DependsOn: []string{stdlib.BOMRef}}
	for _, m := range bi.Deps {
		if m.Replace != nil {
			m = m.Replace
		}
		c := component{Type: "library", Name: m.Path, Version: m.Version, PURL: purl(m.Path, m.Version)}
		c.BOMRef = c.PURL
		if m.Sum != "" {
			c.Properties = []property{{Name: "siteforge:go.sum", Value: m.Sum}}
		}
		b.Components = append(b.Components, c)
		deps.DependsOn = append(deps.DependsOn, c.BOMRef)
	}
	b.Dependencies = []dependency{deps}
	return b
}

// purl is the package URL of a Go module: pkg:golang/<module path>@<version>,
// the module path as the go command spells it (the form govulncheck's
// OpenVEX output uses, golang/vuln internal/openvex/purl.go), each
// character outside the unreserved set and "/" percent-encoded (a "+" of
// "+incompatible" or "+dirty" becomes %2B).
func purl(path, version string) string {
	s := "pkg:golang/" + escape(path, "/")
	if version != "" && version != "(devel)" {
		s += "@" + escape(version, "")
	}
	return s
}

func escape(s, keep string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '.', c == '_', c == '~', strings.IndexByte(keep, c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
