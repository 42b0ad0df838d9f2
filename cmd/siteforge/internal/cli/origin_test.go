package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenderSameFromAnyDirectory: the siteforge.dev/source annotation and
// the file headers name the site relative to the repository root, so the
// CLI at the root, in a subfolder, with an absolute path, and render
// --check from elsewhere all see the same bytes (the KRM function and the
// Argo CD plugin run in other folders than the CLI).
func TestRenderSameFromAnyDirectory(t *testing.T) {
	repo := t.TempDir()
	examples, err := filepath.Abs("../../../../examples")
	if err != nil {
		t.Fatal(err)
	}
	site, err := os.ReadFile(filepath.Join(examples, "disconnected-quay-cache", "site.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for p, b := range map[string][]byte{".git/HEAD": []byte("ref: refs/heads/main\n"), "clusters/lab/site.yaml": site} {
		full := filepath.Join(repo, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runs := []struct{ dir, path string }{
		{repo, "clusters/lab"},
		{repo, "./clusters/lab/"},
		{filepath.Join(repo, "clusters"), "lab"},
		{filepath.Join(repo, "clusters", "lab"), "."},
		{t.TempDir(), filepath.Join(repo, "clusters", "lab")},
	}
	var first string
	for _, r := range runs {
		res := mainIn(t, r.dir, "render", "--stdout", r.path)
		if res.code != 0 {
			t.Fatalf("render --stdout %s in %s: %+v", r.path, r.dir, res)
		}
		if !strings.Contains(res.stdout, "siteforge.dev/source: clusters/lab\n") {
			t.Fatalf("render --stdout %s in %s: no source annotation clusters/lab in\n%.400s", r.path, r.dir, res.stdout)
		}
		if first == "" {
			first = res.stdout
		} else if res.stdout != first {
			t.Errorf("render --stdout %s in %s differs from the render at the repository root", r.path, r.dir)
		}
	}
	// A fleet installed from a hub: its hub/ objects too.
	copyDir(t, filepath.Join(examples, "fleet"), filepath.Join(repo, "stores"))
	var fleet string
	for _, r := range []struct{ dir, path string }{
		{repo, "stores/sites"},
		{filepath.Join(repo, "stores"), "sites"},
		{filepath.Join(repo, "stores", "sites"), "."},
		{t.TempDir(), filepath.Join(repo, "stores", "sites")},
	} {
		res := mainIn(t, r.dir, "render", "--stdout", r.path)
		if res.code != 0 {
			t.Fatalf("render --stdout %s in %s: %+v", r.path, r.dir, res)
		}
		if fleet == "" {
			fleet = res.stdout
		} else if res.stdout != fleet {
			t.Errorf("fleet: render --stdout %s in %s differs", r.path, r.dir)
		}
	}
	fout := filepath.Join(repo, "fleet-rendered")
	if res := mainIn(t, repo, "render", "-o", "fleet-rendered", "stores/sites"); res.code != 0 {
		t.Fatalf("render -o: %+v", res)
	}
	if res := mainIn(t, filepath.Join(repo, "stores", "sites"), "render", "--check", "-o", fout, "."); res.code != 0 {
		t.Errorf("render --check of the fleet from another folder reports the output stale (hub objects included): %+v", res)
	}
	out := filepath.Join(repo, "rendered")
	if res := mainIn(t, repo, "render", "-o", "rendered", "clusters/lab"); res.code != 0 {
		t.Fatalf("render -o: %+v", res)
	}
	if res := mainIn(t, filepath.Join(repo, "clusters"), "render", "--check", "-o", out, "lab"); res.code != 0 {
		t.Errorf("render --check from another folder reports the output stale: %+v", res)
	}
}

// copyDir copies a folder tree of regular files.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
