package e2e

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// preCommit returns Debian's pre-commit, or skips loudly.
func preCommit(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("pre-commit")
	if err != nil {
		t.Skip("SKIPPED: pre-commit is not installed, so the hooks in .pre-commit-hooks.yaml are NOT tested. " +
			"Install Debian's package (apt-get install pre-commit; `make test` does it when run as root).")
	}
	return p
}

// git runs git with a fixed identity and no user or system config.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	env := []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=e2e", "GIT_AUTHOR_EMAIL=e2e@example.com", "GIT_COMMITTER_NAME=e2e", "GIT_COMMITTER_EMAIL=e2e@example.com"}
	res := run(t, dir, env, "git", args...)
	if res.code != 0 {
		t.Fatalf("git %s: %v", strings.Join(args, " "), res)
	}
	return strings.TrimSpace(res.stdout)
}

// hookRepo commits a copy of the working tree (what a user would get at a
// release tag) into a throwaway git repository and returns it and the rev.
func hookRepo(t *testing.T) (dir, rev string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "siteforge")
	// What .gitignore leaves out, plus git's own folder.
	copyTree(t, root, dir, func(rel string, d fs.DirEntry) bool {
		switch {
		case rel == ".git", rel == "bin", rel == "out", rel == "dist":
			return true
		case strings.HasSuffix(rel, ".test"), strings.HasSuffix(rel, ".prof"):
			return true
		}
		return false
	})
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "--no-gpg-sign", "-m", "siteforge working tree")
	return dir, git(t, dir, "rev-parse", "HEAD")
}

// goEnv returns `go env NAME`.
func goEnv(t *testing.T, name string) string {
	t.Helper()
	res := run(t, root, nil, "go", "env", name)
	if res.code != 0 {
		t.Fatalf("go env %s: %v", name, res)
	}
	return strings.TrimSpace(res.stdout)
}

// goFlags is a GOFLAGS setting for a go command the test runs: the
// environment's GOFLAGS (make's -trimpath among them, which every build of
// make test shares so that each package compiles once: the Makefile) with
// extra flags after it, a later flag winning over an earlier one.
func goFlags(extra ...string) string {
	return "GOFLAGS=" + strings.Join(append(strings.Fields(os.Getenv("GOFLAGS")), extra...), " ")
}

// hookVariant is one way the published hooks run: language golang
// (pre-commit builds siteforge with go install ./... in its clone of the
// hook repository; PATH without the test's siteforge, so the hook can only
// run what pre-commit built) or system (the siteforge on PATH; suffix
// -system).
type hookVariant struct{ name, suffix, path string }

// hookVariants are both variants (a function: TestMain puts the test's
// siteforge first on PATH).
func hookVariants() []hookVariant {
	return []hookVariant{
		{"golang", "", strings.Join(withoutDir(filepath.SplitList(os.Getenv("PATH")), binDir), string(os.PathListSeparator))},
		{"system", "-system", os.Getenv("PATH")},
	}
}

// hookEnv is the environment pre-commit runs a variant's hooks in, with
// cache as PRE_COMMIT_HOME (its clones and envs). pre-commit points GOPATH
// at its env folder: the module and build caches stay the ones the rest of
// the run uses, so go install needs no network for modules already
// downloaded (others come through GOPROXY), and compiles only what changed.
// GOFLAGS passes through (a -buildvcs=false there changes only the stamp).
func hookEnv(t *testing.T, v hookVariant, cache string) []string {
	t.Helper()
	return []string{
		"PATH=" + v.path,
		"PRE_COMMIT_HOME=" + cache,
		"GOMODCACHE=" + goEnv(t, "GOMODCACHE"),
		"GOCACHE=" + goEnv(t, "GOCACHE"),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
	}
}

// checkHookBuild fails the test when a golang variant's hooks ran without
// pre-commit building siteforge into its env under cache.
func checkHookBuild(t *testing.T, v hookVariant, cache string) {
	t.Helper()
	if v.suffix != "" {
		return
	}
	if built, _ := filepath.Glob(filepath.Join(cache, "repo*", "golangenv-*", "bin", "siteforge")); len(built) == 0 {
		t.Errorf("pre-commit did not build siteforge into its golang env under %s", cache)
	}
}

// TestPreCommitHooks runs the published hooks through pre-commit, in a user
// repository that uses this tree as its hook repository: siteforge-lint
// passes on an example site and fails on a tag-pulled catalog under
// digest-only mirrors; siteforge-render-check fails when the committed
// output is stale. Both the golang hooks (pre-commit builds siteforge with
// go install ./...) and the -system hooks (siteforge on PATH) run.
func TestPreCommitHooks(t *testing.T) {
	t.Parallel() // see the package doc: its builds and pre-commit runs are in folders of its own
	pc := preCommit(t)
	hooks, rev := hookRepo(t)
	cache := t.TempDir() // PRE_COMMIT_HOME: pre-commit's clones and envs

	for _, variant := range hookVariants() {
		t.Run(variant.name, func(t *testing.T) {
			user := t.TempDir()
			writeFiles(t, user, map[string]string{
				"site/site.yaml": readFile(t, filepath.Join(root, "examples", "disconnected-quay-cache", "site.yaml")),
				".pre-commit-config.yaml": "repos:\n- repo: " + hooks + "\n  rev: " + rev + "\n  hooks:\n" +
					"  - id: siteforge-lint" + variant.suffix + "\n" +
					"  - id: siteforge-render-check" + variant.suffix + "\n    args: [-o, rendered, site]\n",
			})
			if res := siteforge(t, user, "render", "-o", "rendered", "site"); res.code != 0 {
				t.Fatalf("siteforge render: %v", res)
			}
			git(t, user, "init", "-q", "-b", "main")
			git(t, user, "add", "-A")
			env := hookEnv(t, variant, cache)
			runHooks := func() result {
				t.Helper()
				return run(t, user, env, pc, "run", "--all-files", "--color", "never")
			}

			if res := runHooks(); res.code != 0 {
				t.Fatalf("hooks failed on a clean example site: %v", res)
			}
			checkHookBuild(t, variant, cache)

			// Another registry than the site's: the committed rendered output
			// holds tag mirrors for registry.redhat.io, and lint checks the
			// whole repository as one cluster.
			other := strings.NewReplacer("registry.redhat.io", "registry.connect.redhat.com")
			writeFiles(t, user, map[string]string{"manifests/idms.yaml": other.Replace(idmsNeverContact), "manifests/catalog.yaml": other.Replace(catalogByTag)})
			git(t, user, "add", "-A")
			res := runHooks()
			if res.code == 0 {
				t.Fatalf("siteforge-lint%s passed a tag-pulled catalog under NeverContactSource digest mirrors: %v", variant.suffix, res)
			}
			if want := "manifests/catalog.yaml:8:10: error: "; !strings.Contains(res.stdout, want) || !strings.Contains(res.stdout, "[MIR001]") {
				t.Errorf("pre-commit output lacks %q ... [MIR001]: %v", want, res)
			}
			git(t, user, "rm", "-q", "-r", "-f", "manifests")

			stale := filepath.Join(user, "rendered", "lab-disconnected", "kustomization.yaml")
			writeFiles(t, user, map[string]string{"rendered/lab-disconnected/kustomization.yaml": readFile(t, stale) + "# edited by hand\n"})
			git(t, user, "add", "-A")
			res = runHooks()
			if res.code == 0 || !strings.Contains(res.stdout, "rendered is not up to date") {
				t.Errorf("siteforge-render-check%s passed stale rendered output: %v", variant.suffix, res)
			}
		})
	}
}

// TestPreCommitFleet runs the hooks exactly as .pre-commit-hooks.yaml and
// docs/integrations.md document them, in a repository with the fleet layout
// the ApplicationSet assumes (defaults at the root, sites/<name>, rendered
// output committed under rendered/): a clean tree passes; a commit that
// only edits a rendered file that is not YAML (a registries.conf, a
// runbook) is checked and fails, and the printed fix command, run as
// printed, makes the hooks pass again.
func TestPreCommitFleet(t *testing.T) {
	t.Parallel() // see the package doc: its builds and pre-commit runs are in folders of its own
	pc := preCommit(t)
	hooks, rev := hookRepo(t)
	cache := t.TempDir()
	user := t.TempDir()
	copyTree(t, filepath.Join(root, "examples", "fleet"), user, func(string, fs.DirEntry) bool { return false })
	writeFiles(t, user, map[string]string{
		"renovate.json": `{"extends": ["config:recommended"]}` + "\n",
		".pre-commit-config.yaml": "repos:\n- repo: " + hooks + "\n  rev: " + rev + "\n  hooks:\n" +
			"  - id: siteforge-lint-system\n" +
			"  - id: siteforge-render-check-system\n    args: [-o, rendered, sites]\n",
	})
	// The documented render command, as the docs spell it.
	if res := siteforge(t, user, "render", "-o", "rendered", "sites"); res.code != 0 {
		t.Fatalf("siteforge render -o rendered sites: %v", res)
	}
	if res := siteforge(t, user, "render", "--check", "-o", "rendered", "sites"); res.code != 0 || !strings.Contains(res.stdout, "rendered is up to date") {
		t.Fatalf("siteforge render --check -o rendered sites: %v", res)
	}
	git(t, user, "init", "-q", "-b", "main")
	git(t, user, "add", "-A")
	env := []string{"PATH=" + os.Getenv("PATH"), "PRE_COMMIT_HOME=" + cache, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}
	if res := run(t, user, env, pc, "run", "--all-files", "--color", "never"); res.code != 0 {
		t.Fatalf("hooks failed on the clean fleet: %v", res)
	}
	confs, _ := filepath.Glob(filepath.Join(user, "rendered", "store-0001", "mirroring", "registries-*.conf"))
	if len(confs) == 0 {
		t.Fatal("no rendered registries.conf to edit")
	}
	for _, edited := range []string{confs[0], filepath.Join(user, "rendered", "store-0001", "kustomization.yaml")} {
		rel, _ := filepath.Rel(user, edited)
		writeFiles(t, user, map[string]string{rel: readFile(t, edited) + "# edited by hand\n"})
		git(t, user, "add", "-A")
		// Only the edited file is in the commit: the hooks must still run.
		res := run(t, user, env, pc, "run", "--color", "never", "--files", rel)
		if res.code == 0 || !strings.Contains(res.stdout, "rendered is not up to date") {
			t.Fatalf("render-check passed a hand edit of %s: %v", rel, res)
		}
		const fix = "run siteforge render -o rendered sites"
		if !strings.Contains(res.stdout, fix) {
			t.Fatalf("the hook's fix hint is not %q: %v", fix, res)
		}
		if res := siteforge(t, user, "render", "-o", "rendered", "sites"); res.code != 0 {
			t.Fatalf("the printed fix command failed: %v", res)
		}
		git(t, user, "add", "-A")
		if res := run(t, user, env, pc, "run", "--color", "never", "--files", rel); res.code != 0 {
			t.Fatalf("hooks still fail after the printed fix: %v", res)
		}
	}
}

func withoutDir(list []string, dir string) []string {
	var out []string
	for _, d := range list {
		if d != dir {
			out = append(out, d)
		}
	}
	return out
}
