package output

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTree: a tree appears whole, never over a folder that holds files; an
// aborted or stale stage is removed.
func TestTree(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	files := map[string][]byte{"site.yaml": []byte("a: 1\n"), "sites/x/site.yaml": []byte("b: 2\n")}

	// a stage left by a killed run (nobody holds its lock)
	stale := filepath.Join(root, TreePrefix+"123")
	if err := os.MkdirAll(filepath.Join(stale, "sites"), 0o755); err != nil {
		t.Fatal(err)
	}
	tr, err := NewTree(dir, files)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("the stale stage was not removed")
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatal("the tree is visible before Commit")
	}
	if err := tr.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "sites", "x", "site.yaml")); err != nil || string(b) != "b: 2\n" {
		t.Fatalf("%q %v", b, err)
	}
	if tr.Abort() {
		t.Error("Abort after Commit removed something")
	}
	if _, err := NewTree(dir, files); err == nil {
		t.Error("a tree over a folder holding files")
	}

	other := filepath.Join(root, "other")
	tr, err = NewTree(other, files)
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Abort() {
		t.Error("Abort found no stage")
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 || entries[0].Name() != "out" {
		t.Errorf("left behind: %v", entries)
	}
}
