package site

import (
	"fmt"

	"cuelang.org/go/cue"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
)

// Field builds a field path of the site from labels: Field("pools",
// "remote-worker") is `pools."remote-worker"`, the form Positions are keyed
// by.
func Field(labels ...string) string {
	sels := make([]cue.Selector, 0, len(labels))
	for _, l := range labels {
		sels = append(sels, cue.Str(l))
	}
	return cue.MakePath(sels...).String()
}

// Index is the path of element i of the list at path.
func Index(path string, i int) string {
	return cue.MakePath(append(cue.ParsePath(path).Selectors(), cue.Index(i))...).String()
}

// Minor is the site's OpenShift minor (cluster.version), or a positioned
// diagnostic when it does not parse (the schema lets only 4.N and 4.N.z
// through).
func (s *Site) Minor() (platform.OCPMinor, error) {
	m, err := platform.ParseOCPMinor(s.Cluster.Version)
	if err != nil {
		return 0, diag.List{{Pos: s.Positions.Of("cluster.version"), Path: "cluster.version", Message: err.Error()}}
	}
	return m, nil
}

// FieldPath builds a field path from labels (string) and list indexes (int):
// FieldPath("pools", "remote-worker", "uplinkMTU") is
// `pools."remote-worker".uplinkMTU`, FieldPath("paths", 0, "mtu") is
// `paths[0].mtu`.
func FieldPath(parts ...any) string {
	sels := make([]cue.Selector, 0, len(parts))
	for _, p := range parts {
		switch p := p.(type) {
		case int:
			sels = append(sels, cue.Index(p))
		case string:
			sels = append(sels, cue.Str(p))
		default:
			panic(fmt.Sprintf("site.FieldPath: %T", p))
		}
	}
	return cue.MakePath(sels...).String()
}

// At is a diagnostic at a field of the site (path as Positions keys it).
func (s *Site) At(path, msg, hint string) diag.Diagnostic {
	return diag.Diagnostic{Pos: s.Positions.Of(path), Path: path, Message: msg, Hint: hint}
}
