package load

import (
	"path/filepath"
	"testing"

	"github.com/siteforge/siteforge/internal/fleetgen"
)

// BenchmarkLoadSite: load and evaluate one site (YAML), the per-site cost
// of every command.
func BenchmarkLoadSite(b *testing.B) {
	l := newLoader(b)
	src := []byte(goodYAML)
	b.ReportAllocs()
	for b.Loop() {
		if res := l.LoadSource("site.yaml", src); len(res.Diagnostics) > 0 {
			b.Fatal(res.Diagnostics)
		}
	}
}

// BenchmarkLoadFleet: a synthetic fleet of 40 sites sharing fleet defaults
// (every kind of site), per site.
func BenchmarkLoadFleet(b *testing.B) {
	dir := b.TempDir()
	if err := fleetgen.Write(dir, 40); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		res := Load([]string{filepath.Join(dir)})
		if len(res.Diagnostics) > 0 || len(res.Sites) != 40 {
			b.Fatal(res.Diagnostics)
		}
	}
}
