package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"testing"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/fleetgen"
	"github.com/siteforge/siteforge/lint"
)

// BenchmarkRenderFleet: `siteforge render FLEET -o DIR` in process, for a
// 500-site synthetic fleet (make bench runs the whole process at larger
// sizes).
func BenchmarkRenderFleet(b *testing.B) {
	dir := b.TempDir()
	fleet := filepath.Join(dir, "fleet")
	if err := fleetgen.Write(fleet, 500); err != nil {
		b.Fatal(err)
	}
	e := env{stdout: io.Discard, stderr: io.Discard}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		// a fresh folder each time: into the same one, the digest cache
		// would skip every site after the first run
		i++
		if code := Main([]string{"render", fleet, "-o", filepath.Join(dir, fmt.Sprintf("out-%d", i))}, nil, e.stdout, e.stderr); code != 0 {
			b.Fatalf("render exited %d", code)
		}
	}
}

// BenchmarkLintFleet: `siteforge lint FLEET` in process, for the same
// 500-site fleet: every site rendered, read back and linted on the workers.
func BenchmarkLintFleet(b *testing.B) {
	dir := b.TempDir()
	fleet := filepath.Join(dir, "fleet")
	if err := fleetgen.Write(fleet, 500); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if code := Main([]string{"lint", fleet}, nil, io.Discard, io.Discard); code != ExitOK && code != ExitFindings {
			b.Fatalf("lint exited %d", code)
		}
	}
}

// BenchmarkLintRenderedSites: what lint of a fleet adds to render, per op
// for 100 rendered synthetic sites: reading the rendered resources back
// (Output.Objects) and checking each site's set (lint.SiteSet,
// Linter.Check). Loading and rendering are done once, outside the loop.
func BenchmarkLintRenderedSites(b *testing.B) {
	dir := b.TempDir()
	fleet := filepath.Join(dir, "fleet")
	if err := fleetgen.Write(fleet, 100); err != nil {
		b.Fatal(err)
	}
	var (
		mu   sync.Mutex
		outs []*generators.Output
	)
	if _, err := eachSite([]string{fleet}, generators.Options{}, func(_ int, o *generators.Output) error {
		mu.Lock()
		outs = append(outs, o)
		mu.Unlock()
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	if len(outs) != 100 {
		b.Fatalf("%d sites rendered, want 100", len(outs))
	}
	linter, err := lint.New(lint.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, o := range outs {
			objs, origin, err := o.Objects()
			if err != nil {
				b.Fatal(err)
			}
			linter.Check(lint.SiteSet(&lint.Site{Site: o.Site, Objects: objs, Origin: origin, Warnings: o.AllWarnings()}))
		}
	}
}
