package output

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		got[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestWriteReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	first := Site{Name: "a", Files: map[string][]byte{"x/one.yaml": []byte("1"), "two.yaml": []byte("2")}}
	if err := Write(dir, first); err != nil {
		t.Fatal(err)
	}
	second := Site{Name: "a", Files: map[string][]byte{"x/one.yaml": []byte("one")}}
	if err := Write(dir, second); err != nil {
		t.Fatal(err)
	}
	if got := readTree(t, filepath.Join(dir, "a")); !reflect.DeepEqual(got, map[string]string{"x/one.yaml": "one"}) {
		t.Errorf("after the second write: %v (files of the first render must be gone)", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary folders left behind: %v", entries)
	}
}

func TestWriteRefusesEscapes(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"..", "a/b", "", ".hidden"} {
		if err := Write(dir, Site{Name: name}); err == nil {
			t.Errorf("site name %q accepted", name)
		}
	}
	for _, p := range []string{"../x", "/etc/passwd", "a/../../x"} {
		err := Write(dir, Site{Name: "s", Files: map[string][]byte{p: []byte("x")}})
		if err == nil || !strings.Contains(err.Error(), "refusing") {
			t.Errorf("path %q: err %v, want a refusal", p, err)
		}
	}
	// A failed write leaves nothing behind.
	if _, err := os.Stat(filepath.Join(dir, "s")); err == nil {
		t.Errorf("a refused write created the site folder")
	}
	// A symlinked site folder is not followed.
	target := t.TempDir()
	if err := os.Symlink(target, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, Site{Name: "link", Files: map[string][]byte{"a": nil}}); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("symlinked site folder: %v", err)
	}
	if entries, _ := os.ReadDir(target); len(entries) != 0 {
		t.Errorf("wrote through a symlink: %v", entries)
	}
}

func TestPrepareDir(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "file")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := PrepareDir(f); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("PrepareDir(file) = %v", err)
	}
	undo, err := PrepareDir(filepath.Join(dir, "new", "deep"))
	if err != nil {
		t.Errorf("PrepareDir(new) = %v", err)
	}
	undo()
	if _, err := os.Stat(filepath.Join(dir, "new")); err == nil {
		t.Errorf("undo left the created folders")
	}
}

func TestDiff(t *testing.T) {
	dir := t.TempDir()
	s := Site{Name: "a", Files: map[string][]byte{"same": []byte("1"), "changed": []byte("2"), "gone": []byte("3")}}
	if err := Write(dir, s); err != nil {
		t.Fatal(err)
	}
	if d, err := Diff(dir, s); err != nil || len(d) != 0 {
		t.Fatalf("fresh output differs: %v %v", d, err)
	}
	fresh := Site{Name: "a", Files: map[string][]byte{"same": []byte("1"), "changed": []byte("two"), "new": []byte("4")}}
	d, err := Diff(dir, fresh)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"stale " + filepath.Join(dir, "a", "changed"), "missing " + filepath.Join(dir, "a", "new"), "extra " + filepath.Join(dir, "a", "gone")}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("Diff = %v, want %v", d, want)
	}
	// A site never rendered: every file is missing.
	if d, _ := Diff(dir, Site{Name: "b", Files: map[string][]byte{"x": nil}}); len(d) != 1 || !strings.HasPrefix(d[0], "missing") {
		t.Errorf("Diff of an absent site = %v", d)
	}
}

// TestConcurrentWritesOfDifferentSites: runs rendering different sites into
// one directory at the same time do not interfere.
func TestConcurrentWritesOfDifferentSites(t *testing.T) {
	dir := t.TempDir()
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		go func(i int) {
			name := string(rune('a' + i))
			errs <- Write(dir, Site{Name: name, Files: map[string][]byte{"x/y.yaml": []byte(name)}})
		}(i)
	}
	for i := 0; i < 8; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 8 {
		t.Fatalf("want 8 site folders and no leftovers, got %v", entries)
	}
	for i := 0; i < 8; i++ {
		name := string(rune('a' + i))
		if got := readTree(t, filepath.Join(dir, name)); got["x/y.yaml"] != name {
			t.Errorf("site %s: %v", name, got)
		}
	}
}
