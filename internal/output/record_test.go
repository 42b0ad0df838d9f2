package output

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/siteforge/siteforge/internal/digest"
)

func hashes(files map[string][]byte) map[string]string {
	out := map[string]string{}
	for p, b := range files {
		out[p] = digest.FileHash(b)
	}
	return out
}

// legacyRecord is the record older releases wrote into each site folder.
const legacyRecord = ".siteforge-digest"

// TestNoFileExempt: a site folder holds only what render writes; a record
// file there (older releases wrote one; a commit can write one) is an extra
// file for Diff and a change for Unchanged, never render's own.
func TestNoFileExempt(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{"kustomization.yaml": []byte("k\n"), "a/b.yaml": []byte("b\n")}
	if err := Write(dir, Site{Name: "lab", Files: files}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lab", legacyRecord), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if d, err := Diff(dir, Site{Name: "lab", Files: files}); err != nil || len(d) != 1 || d[0] != "extra "+filepath.Join(dir, "lab", legacyRecord) {
		t.Errorf("Diff of a folder with a record file: %v %v, want it extra", d, err)
	}
	if Unchanged(dir, "lab", hashes(files)) {
		t.Error("Unchanged vouches for a folder with a record file")
	}
	// render writes the folder again: the record file goes
	if err := Write(dir, Site{Name: "lab", Files: files}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "lab", legacyRecord)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a site written again keeps the record file: %v", err)
	}
}

// TestUnchanged: true only for exactly the recorded files with the recorded
// contents, as Diff would say.
func TestUnchanged(t *testing.T) {
	files := map[string][]byte{"kustomization.yaml": []byte("k\n"), "a/b.yaml": []byte("b\n")}
	for _, tc := range []struct {
		name string
		edit func(root string)
		want bool
	}{
		{"as written", func(string) {}, true},
		{"a record file added", func(root string) { os.WriteFile(filepath.Join(root, legacyRecord), []byte("x"), 0o644) }, false},
		{"empty folder added", func(root string) { os.Mkdir(filepath.Join(root, "c"), 0o755) }, true},
		{"edited", func(root string) { os.WriteFile(filepath.Join(root, "a/b.yaml"), []byte("c\n"), 0o644) }, false},
		{"grown", func(root string) { os.WriteFile(filepath.Join(root, "a/b.yaml"), []byte("b\n\n"), 0o644) }, false},
		{"added", func(root string) { os.WriteFile(filepath.Join(root, "a/c.yaml"), nil, 0o644) }, false},
		{"hidden file added", func(root string) { os.WriteFile(filepath.Join(root, ".x"), nil, 0o644) }, false},
		{"a record file in a subfolder", func(root string) { os.WriteFile(filepath.Join(root, "a", legacyRecord), nil, 0o644) }, false},
		{"removed", func(root string) { os.Remove(filepath.Join(root, "a/b.yaml")) }, false},
		{"a link to the same bytes", func(root string) {
			p := filepath.Join(root, "a/b.yaml")
			os.Rename(p, p+".real")
			os.Rename(p+".real", filepath.Join(root, "real"))
			os.Symlink(filepath.Join(root, "real"), p)
		}, false},
		{"a linked folder", func(root string) {
			os.Rename(filepath.Join(root, "a"), filepath.Join(root, "..", "elsewhere"))
			os.Symlink(filepath.Join(root, "..", "elsewhere"), filepath.Join(root, "a"))
		}, false},
		{"gone", func(root string) { os.RemoveAll(root) }, false},
		{"a file", func(root string) { os.RemoveAll(root); os.WriteFile(root, nil, 0o644) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := Write(dir, Site{Name: "lab", Files: files}); err != nil {
				t.Fatal(err)
			}
			tc.edit(filepath.Join(dir, "lab"))
			if got := Unchanged(dir, "lab", hashes(files)); got != tc.want {
				t.Errorf("Unchanged = %v, want %v", got, tc.want)
			}
			diffs, err := Diff(dir, Site{Name: "lab", Files: files})
			if err == nil && (len(diffs) == 0) != tc.want {
				t.Errorf("Unchanged = %v but Diff says %v", tc.want, diffs)
			}
		})
	}
}

// TestCommitRefusesAReplacedKeptFolder: a folder the run left as it is,
// replaced by another render meanwhile, fails the commit, which changes
// nothing.
func TestCommitRefusesAReplacedKeptFolder(t *testing.T) {
	dir := t.TempDir()
	if err := stageSites(t, dir, "1", "a", "b").Commit(); err != nil {
		t.Fatal(err)
	}
	ino, ok := FolderID(dir, "a")
	if !ok {
		t.Fatal("no folder a")
	}
	st := stageSites(t, dir, "2", "b")
	st.Keep("a", ino)
	if err := stageSites(t, dir, "3", "a").Commit(); err != nil { // another render
		t.Fatal(err)
	}
	if err := st.Commit(); !errors.Is(err, ErrReplaced) {
		t.Fatalf("commit: %v, want ErrReplaced", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "b", "f.yaml")); string(b) != "b1" {
		t.Errorf("b = %q: the failed commit wrote", b)
	}
	// Kept and not replaced: the commit goes through.
	ino, _ = FolderID(dir, "a")
	st = stageSites(t, dir, "4", "b")
	st.Keep("a", ino)
	if err := st.Commit(); err != nil {
		t.Fatal(err)
	}
}
