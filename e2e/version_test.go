package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionOfCheckoutBuild: a siteforge built from a git checkout by
// `make build` reports the commit it was built from, in `--version` and in
// `version --format json` (the toolchain's VCS stamping, read from the
// build info), even with GOFLAGS=-buildvcs=false in the environment (CI
// images set it): the Makefile passes -buildvcs=auto, and a flag on the
// command line wins over GOFLAGS. The same build without that flag carries
// no VCS information, and siteforge version says so. (Since Go 1.24 the go
// command also derives the module version from the commit: a
// pseudo-version v0.0.0-<time>-<commit>.) The checkout is a fresh
// repository holding this tree: the go command stamps only a .git
// directory, not a worktree's .git file.
func TestVersionOfCheckoutBuild(t *testing.T) {
	t.Parallel() // see the package doc: its builds and pre-commit runs are in folders of its own
	for _, tool := range []string{"git", "make"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("SKIPPED LOUDLY: %s is not installed; the VCS stamping of a checkout build is not tested", tool)
		}
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
	noVCS := []string{goFlags("-buildvcs=false")}

	// without -buildvcs on the command line, GOFLAGS wins: no stamp, and
	// siteforge version says so
	plain := filepath.Join(t.TempDir(), "siteforge")
	if r := run(t, src, noVCS, "go", "build", "-o", plain, "./cmd/siteforge"); r.code != 0 {
		t.Fatalf("go build: %s", r)
	}
	r := run(t, src, nil, plain, "version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "siteforge 0.0.0-devel (schema") || !strings.Contains(r.stdout, "revision  none: this build carries no VCS information") {
		t.Errorf("version of a build with GOFLAGS=-buildvcs=false does not say it carries no VCS information: %s", r)
	}
	r = run(t, src, nil, plain, "version", "--format", "json")
	if r.code != 0 || !strings.Contains(r.stdout, `"vcs": false,`) || strings.Contains(r.stdout, `"revision"`) {
		t.Errorf("version --format json of a build with GOFLAGS=-buildvcs=false: %s", r)
	}

	// make build, with GOFLAGS=-buildvcs=false still in the environment
	out := t.TempDir()
	if r := run(t, src, noVCS, "make", "-s", "build", "BIN="+out); r.code != 0 {
		t.Fatalf("make build: %s", r)
	}
	bin := filepath.Join(out, "siteforge")
	r = run(t, src, nil, bin, "--version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "siteforge ") || !strings.Contains(strings.SplitN(r.stdout, "\n", 2)[0], rev[:12]) || !strings.Contains(r.stdout, "revision  "+rev+"\n") || !strings.Contains(r.stdout, "modified  false\n") {
		t.Errorf("--version of a checkout build at %s: %s", rev, r)
	}
	r = run(t, src, nil, bin, "version", "--format", "json")
	var got struct {
		Version, Revision, Time string
		VCS, Modified           bool
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != 0 {
		t.Fatalf("version --format json: %v: %s", err, r)
	}
	if got.Revision != rev || got.Time == "" || !got.VCS || got.Modified || !strings.Contains(got.Version, rev[:12]) {
		t.Errorf("version --format json of a checkout build at %s: %+v", rev, got)
	}
}
