package all

import (
	"path/filepath"
	"testing"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/site"
)

// BenchmarkGenerators: each generator over every bundled example site, per
// site.
func BenchmarkGenerators(b *testing.B) {
	b.Chdir(filepath.Join("..", ".."))
	res := load.Load([]string{"examples/agent-sno", "examples/aws-local-zones", "examples/aws-local-zones-ipi", "examples/disconnected-quay-cache", "examples/remote-workers", "examples/fleet"})
	if len(res.Diagnostics) > 0 {
		b.Fatal(res.Diagnostics)
	}
	for _, name := range generators.Names() {
		g, _ := generators.Get(name)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, s := range res.Sites {
					if _, err := g.Generate(testContext(s), s); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
	b.Run("render", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range res.Sites {
				if _, err := generators.Render(s, generators.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// testContext is the render context of s (its cluster.version parsed).
func testContext(s *site.Site) *generators.Context {
	ctx, err := generators.NewContext(s, generators.Options{})
	if err != nil {
		panic(err)
	}
	return ctx
}
