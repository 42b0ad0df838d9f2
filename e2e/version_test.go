package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionOfCheckoutBuild: a siteforge built from a git checkout
// reports the commit it was built from, in `--version` and in `version
// --format json` (the toolchain's VCS stamping, read from the build info).
// (Since Go 1.24 the go command also derives the module version from the
// commit: a pseudo-version v0.0.0-<time>-<commit>.) The checkout is a fresh repository holding this tree: the go command
// stamps only a .git directory, not a worktree's .git file.
func TestVersionOfCheckoutBuild(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIPPED LOUDLY: git is not installed; the VCS stamping of a checkout build is not tested")
	}
	src := t.TempDir()
	copyTree(t, root, src, func(rel string, d os.DirEntry) bool {
		return rel == ".git" || rel == "bin" || rel == "out" || strings.HasSuffix(rel, ".test")
	})
	gitEnv := []string{"GIT_AUTHOR_NAME=e2e", "GIT_AUTHOR_EMAIL=e2e@example.com", "GIT_COMMITTER_NAME=e2e", "GIT_COMMITTER_EMAIL=e2e@example.com", "GIT_CONFIG_GLOBAL=/dev/null"}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "checkout"}} {
		if r := run(t, src, gitEnv, "git", args...); r.code != 0 {
			t.Fatalf("git %v: %s", args, r)
		}
	}
	rev := strings.TrimSpace(run(t, src, gitEnv, "git", "rev-parse", "HEAD").stdout)
	bin := filepath.Join(t.TempDir(), "siteforge")
	// GOFLAGS may say -buildvcs=false (CI images do): this build asks for it
	if r := run(t, src, []string{"GOFLAGS="}, "go", "build", "-buildvcs=true", "-o", bin, "./cmd/siteforge"); r.code != 0 {
		t.Fatalf("go build: %s", r)
	}
	r := run(t, src, nil, bin, "--version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "siteforge ") || !strings.Contains(strings.SplitN(r.stdout, "\n", 2)[0], rev[:12]) || !strings.Contains(r.stdout, "revision  "+rev+"\n") || !strings.Contains(r.stdout, "modified  false\n") {
		t.Errorf("--version of a checkout build at %s: %s", rev, r)
	}
	r = run(t, src, nil, bin, "version", "--format", "json")
	var got struct {
		Version, Revision, Time string
		Modified                bool
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != 0 {
		t.Fatalf("version --format json: %v: %s", err, r)
	}
	if got.Revision != rev || got.Time == "" || got.Modified || !strings.Contains(got.Version, rev[:12]) {
		t.Errorf("version --format json of a checkout build at %s: %+v", rev, got)
	}
}
