package lint_test

import (
	"testing"

	"github.com/siteforge/siteforge/lint"
)

// BenchmarkLintManifests: every rule over a small GitOps set (mirror sets
// and a catalog), the pre-commit hot path after reading.
func BenchmarkLintManifests(b *testing.B) {
	objs := readDocs(b, idms, catalog(""))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lint.Run(&lint.Input{Objects: objs}, lint.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
