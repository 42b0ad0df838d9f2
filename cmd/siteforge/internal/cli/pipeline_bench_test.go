package cli

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/siteforge/siteforge/internal/fleetgen"
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
	for b.Loop() {
		if code := Main([]string{"render", fleet, "-o", filepath.Join(dir, "out")}, nil, e.stdout, e.stderr); code != 0 {
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
	for b.Loop() {
		if code := Main([]string{"lint", fleet}, nil, io.Discard, io.Discard); code != ExitOK && code != ExitFindings {
			b.Fatalf("lint exited %d", code)
		}
	}
}
