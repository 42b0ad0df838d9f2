package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// TestGoInstallAtVersion runs the install step of
// examples/github/siteforge.yml, `go install
// github.com/siteforge/siteforge/cmd/siteforge@<version>`, against this
// tree published as that version on a local module proxy (a file://
// GOPROXY holding the module zip the go command would download): the
// command builds a siteforge that runs.
func TestGoInstallAtVersion(t *testing.T) {
	t.Parallel() // see the package doc: its builds and pre-commit runs are in folders of its own
	wf := readFile(t, filepath.Join(root, "examples", "github", "siteforge.yml"))
	const cmd = "go install github.com/siteforge/siteforge/cmd/siteforge@"
	i := strings.Index(wf, cmd)
	if i < 0 {
		t.Fatalf("the workflow has no %q step", cmd)
	}
	// The workflow's version with a prerelease suffix of this run: the
	// module cache keeps every version it downloaded, so a fixed version
	// would install what an earlier run (or an earlier tree) published.
	version := strings.Fields(wf[i+len(cmd):])[0] + "-e2e." + strconv.FormatInt(time.Now().UnixNano(), 10)
	mv := module.Version{Path: "github.com/siteforge/siteforge", Version: version}
	modcache := goEnv(t, "GOMODCACHE")
	t.Cleanup(func() {
		// leave no copy of this run's module in the shared module cache
		for _, p := range []string{
			filepath.Join(modcache, "github.com", "siteforge", "siteforge@"+version),
		} {
			_ = filepath.WalkDir(p, func(q string, d os.DirEntry, err error) error {
				if err == nil && d.IsDir() {
					_ = os.Chmod(q, 0o755)
				}
				return nil
			})
			_ = os.RemoveAll(p)
		}
		dl, _ := filepath.Glob(filepath.Join(modcache, "cache", "download", "github.com", "siteforge", "siteforge", "@v", version+".*"))
		for _, f := range dl {
			_ = os.Remove(f)
		}
	})

	proxy := t.TempDir()
	dir := filepath.Join(proxy, "github.com", "siteforge", "siteforge", "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// The module as a release would publish it: the checked-in files.
	src := t.TempDir()
	copyTree(t, root, src, func(rel string, d os.DirEntry) bool {
		return rel == ".git" || rel == "bin" || rel == "out" || rel == "dist" || strings.HasSuffix(rel, ".test")
	})
	zf, err := os.Create(filepath.Join(dir, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	if err := modzip.CreateFromDir(zf, mv, src); err != nil {
		t.Fatalf("module zip: %v", err)
	}
	zf.Close()
	gomod := readFile(t, filepath.Join(root, "go.mod"))
	writeFiles(t, dir, map[string]string{
		"list":            version + "\n",
		version + ".mod":  gomod,
		version + ".info": `{"Version":"` + version + `","Time":"2026-11-24T00:00:00Z"}`,
	})
	gobin := t.TempDir()
	env := []string{
		"GOPROXY=file://" + filepath.ToSlash(proxy) + "," + goEnv(t, "GOPROXY"),
		"GONOSUMDB=github.com/siteforge", "GONOSUMCHECK=1", goFlags("-mod=mod"),
		"GOBIN=" + gobin, "GOWORK=off",
	}
	res := run(t, t.TempDir(), env, "go", strings.Fields(cmd + version)[1:]...)
	if res.code != 0 {
		t.Fatalf("%s%s: %v", cmd, version, res)
	}
	out := run(t, t.TempDir(), nil, filepath.Join(gobin, "siteforge"), "version")
	if out.code != 0 || !strings.Contains(out.stdout, "siteforge "+version) {
		t.Errorf("the installed siteforge: %v", out)
	}
}
