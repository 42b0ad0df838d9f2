package load

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	run := NewOrigins() // one run's: each folder searched once
	for _, src := range []string{"sites/a", "./sites/a/", filepath.Join(repo, "fleet", "sites", "a"), "../fleet/sites/a"} {
		if got := Origin(src); got != "fleet/sites/a" {
			t.Errorf("Origin(%q) = %q, want fleet/sites/a", src, got)
		}
		if got := run.Origin(src); got != "fleet/sites/a" {
			t.Errorf("Origins.Origin(%q) = %q, want fleet/sites/a", src, got)
		}
	}
	// The run remembers each folder's search: a repository made during
	// the run is seen by the next run (a new Origins), and by Origin.
	if err := os.Mkdir(filepath.Join(repo, "fleet", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := run.Origin("sites/a"); got != "fleet/sites/a" {
		t.Errorf("the run's Origins searched again: %q", got)
	}
	if got, got2 := NewOrigins().Origin("sites/a"), Origin("sites/a"); got != "sites/a" || got2 != "sites/a" {
		t.Errorf("after git init of the fleet folder: next run %q, Origin %q, want sites/a", got, got2)
	}
	if err := os.Remove(filepath.Join(repo, "fleet", ".git")); err != nil {
		t.Fatal(err)
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

// TestGitWorkTreeFollowsGit: GitWorkTree answers as git run in the folder
// does (git rev-parse --show-toplevel), GIT_DIR, GIT_WORK_TREE and
// core.worktree included (before: only a .git entry counted, so a
// "dotfiles" work tree was no work tree).
func TestGitWorkTreeFollowsGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found: TestInstallConfigRefusesEnvWorkTree (cmd/siteforge/internal/cli) covers the rules without it")
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(base, "home")
	bare := filepath.Join(home, ".dotfiles")
	repo := filepath.Join(home, "src", "repo")
	for _, d := range []string{filepath.Join(home, "installs"), filepath.Join(repo, "sites"), filepath.Join(base, "elsewhere")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q", "--bare", bare}, {"init", "-q", repo}} {
		if out, err := exec.Command(git, args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	gitTop := func(dir string) string {
		cmd := exec.Command(git, "rev-parse", "--show-toplevel")
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	cases := []struct {
		name string
		env  map[string]string
		wd   string
	}{
		{"no variables", nil, base},
		{"GIT_DIR and GIT_WORK_TREE", map[string]string{"GIT_DIR": bare, "GIT_WORK_TREE": home}, base},
		{"GIT_DIR of a bare repository", map[string]string{"GIT_DIR": bare}, home},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Chdir(c.wd)
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			run := NewOrigins() // one run's, shared by the folders below
			for _, dir := range []string{filepath.Join(home, "installs"), home, filepath.Join(base, "elsewhere")} {
				want := ""
				if top := gitTop(dir); top != "" && (top == dir || strings.HasPrefix(dir, top+"/")) {
					want = top
				}
				if got := GitWorkTree(dir); got != want {
					t.Errorf("%s: GitWorkTree %q, git %q", dir, got, want)
				}
				if got := run.WorkTree(dir); got != want {
					t.Errorf("%s: a run's Origins %q, git %q", dir, got, want)
				}
			}
			// A repository inside the work tree: the nearest.
			if got := GitWorkTree(filepath.Join(repo, "sites")); got != repo {
				t.Errorf("inside a repository: %q, want %q", got, repo)
			}
			if got := run.WorkTree(filepath.Join(repo, "sites")); got != repo {
				t.Errorf("inside a repository, a run's Origins: %q, want %q", got, repo)
			}
		})
	}
}
