package load

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOrigin(t *testing.T) {
	repo := t.TempDir()
	if err := os.MkdirAll(filepath.Join(repo, "fleet", "sites", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A worktree's or submodule's .git is a file.
	if err := os.WriteFile(filepath.Join(repo, ".git"), []byte("gitdir: /elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(repo, "fleet"))
	for _, src := range []string{"sites/a", "./sites/a/", filepath.Join(repo, "fleet", "sites", "a"), "../fleet/sites/a"} {
		if got := Origin(src); got != "fleet/sites/a" {
			t.Errorf("Origin(%q) = %q, want fleet/sites/a", src, got)
		}
	}
	SetRepoRoot(filepath.Join(repo, "fleet"))
	got := Origin("sites/a")
	SetRepoRoot("")
	if got != "sites/a" {
		t.Errorf("with the root set to the fleet: %q", got)
	}
	// Outside any repository: the path as given, cleaned.
	bare := t.TempDir()
	t.Chdir(bare)
	if got := Origin("./x/site.yaml"); got != "x/site.yaml" {
		t.Errorf("no repository: %q", got)
	}
	// A root set to a folder the site is not in: the path as given.
	SetRepoRoot(filepath.Join(repo, "fleet"))
	defer SetRepoRoot("")
	if got := Origin("x/site.yaml"); got != "x/site.yaml" {
		t.Errorf("site outside the set root: %q", got)
	}
}
