package output

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResolverAnswersAsResolve: the remembering resolver gives every path
// the answer resolve gives (EvalSymlinks of what exists), through folder
// and file links, links to links, paths inside a linked folder, paths that
// do not exist yet and relative paths, asked in any order and twice.
func TestResolverAnswersAsResolve(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"real/sites/a", "real/sites/b", "other/x"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"real/sites/a/site.cue", "real/sites/b/site.cue", "other/x/f.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"fleet":                "real",
		"real/sites/c":         "../../other/x",
		"real/sites/a/l.cue":   "site.cue",
		"real/sites/b/ll.cue":  "../a/l.cue",
		"real/sites/dangling":  "nowhere",
		"real/sites/abs-other": filepath.Join(dir, "other"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	paths := []string{
		"real", "real/sites", "real/sites/a", "real/sites/a/site.cue", "real/sites/b/site.cue",
		"fleet", "fleet/sites/a/site.cue", "fleet/sites/c", "fleet/sites/c/f.yaml", "real/sites/c/f.yaml",
		"real/sites/a/l.cue", "real/sites/b/ll.cue", "real/sites/dangling", "real/sites/abs-other/x/f.yaml",
		"real/sites/new/out", "fleet/new", "missing/a/b", "real/sites/a/../b/site.cue",
	}
	r := resolver{}
	for round := 0; round < 2; round++ {
		for _, p := range paths {
			abs := filepath.Join(dir, p)
			want, werr := resolve(abs)
			got, gerr := r.resolve(abs)
			if got != want || (werr == nil) != (gerr == nil) {
				t.Errorf("round %d, %s: resolver %q, %v; resolve %q, %v", round, p, got, gerr, want, werr)
			}
		}
	}
	if len(r) == 0 {
		t.Error("the resolver remembered no folder")
	}
	// a relative path, from the working directory
	t.Chdir(filepath.Join(dir, "fleet"))
	got, err := resolver{}.resolve("sites/c/f.yaml")
	want, _ := resolve("sites/c/f.yaml")
	if err != nil || got != want || !strings.HasSuffix(got, filepath.Join("other", "x", "f.yaml")) {
		t.Errorf("relative path: %q, %v; resolve %q", got, err, want)
	}
}
