package e2e

import (
	"bytes"
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// releaseEnv keeps a parent make's flags (`make test` runs this test) out
// of the make the test runs.
var releaseEnv = []string{"MAKEFLAGS=", "MFLAGS=", "MAKELEVEL="}

// TestReleaseFiles: `make release` with its default platforms would write
// a binary and an SBOM for linux and darwin on amd64 and arm64, and
// SHA256SUMS, and build the image or say loudly that it cannot.
func TestReleaseFiles(t *testing.T) {
	t.Parallel() // see the package doc: its builds and pre-commit runs are in folders of its own
	mk := makeCommand(t)
	dir := filepath.Join(t.TempDir(), "dist")
	res := run(t, root, releaseEnv, mk, "-s", "release", "RELEASE_DIR="+dir, "RELEASE_ARGS=-n")
	if res.code != 0 {
		t.Fatalf("make release RELEASE_ARGS=-n: %v", res)
	}
	var want []string
	for _, p := range []string{"linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64"} {
		want = append(want, filepath.Join(dir, "siteforge-"+p), filepath.Join(dir, "siteforge-"+p+".cdx.json"))
	}
	want = append(want, filepath.Join(dir, "SHA256SUMS"))
	lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
	if len(lines) < len(want) || strings.Join(lines[:len(want)], "\n") != strings.Join(want, "\n") {
		t.Errorf("make release would write:\n%s\nwant:\n%s", res.stdout, strings.Join(want, "\n"))
	}
	_, podman := exec.LookPath("podman")
	_, buildah := exec.LookPath("buildah")
	image := strings.Join(lines[min(len(want), len(lines)):], "\n")
	switch {
	case podman == nil || buildah == nil:
		if !strings.Contains(image, "build --platform linux/amd64,linux/arm64 --manifest siteforge:") {
			t.Errorf("podman or buildah is on PATH, but make release would not build the image:\n%s", image)
		}
	case !strings.Contains(image, "SKIPPED: the container image was NOT built") || !strings.Contains(image, "*****"):
		t.Errorf("without podman and buildah, make release does not say loudly that it skips the image:\n%s", image)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("make release RELEASE_ARGS=-n created %s", dir)
	}
}

// TestReleaseReproducible builds the linux/amd64 release twice, into two
// folders, once in this checkout and once in a copy of it at another path,
// and requires the same bytes in every file: -trimpath keeps the paths of
// the checkout out of the binary. SHA256SUMS verifies with sha256sum -c;
// the SBOM lists the module's dependencies as the package graph has them
// (go list -deps, not the binary's own record the SBOM is made from) and
// the Go standard library; a build from a clone carries the commit.
//
// The copy shares the checkout's git state through a .git symlink (to the
// folder of a clone, or to a linked worktree's .git file: the go command
// stamps the copy exactly as it stamps the checkout) and reads it with
// GIT_OPTIONAL_LOCKS=0, so that git status in the copy does not rewrite
// the checkout's index. Both builds share the build cache: the go command
// keys a package's compiled output by its folder unless -trimpath is given
// (cmd/go's action IDs), so the copy's packages come from the cache only
// because -trimpath is in effect, and without it they would be compiled
// again with the copy's paths in them, and the bytes would differ. A cold
// second cache would prove that the cache changes nothing, at the cost of
// compiling every dependency again (minutes of CPU on 2 cores), and would
// prove nothing more about paths.
func TestReleaseReproducible(t *testing.T) {
	t.Parallel() // see the package doc: its builds and pre-commit runs are in folders of its own
	mk := makeCommand(t)
	tmp := t.TempDir()
	other := filepath.Join(tmp, "elsewhere", "siteforge")
	copyTree(t, root, other, func(rel string, d os.DirEntry) bool {
		return rel == ".git" || rel == "bin" || rel == "out" || rel == "dist" || strings.HasSuffix(rel, ".test")
	})
	if err := os.Symlink(filepath.Join(root, ".git"), filepath.Join(other, ".git")); err != nil {
		t.Fatal(err)
	}
	gitEnv := append([]string{"GIT_OPTIONAL_LOCKS=0"}, releaseEnv...)
	if a, b := run(t, root, gitEnv, "git", "status", "--porcelain"), run(t, other, gitEnv, "git", "status", "--porcelain"); a.code != 0 || a != b {
		t.Fatalf("git status differs between the checkout and its copy at %s:\n%v\n%v", other, a, b)
	}
	var dirs []string
	for i, src := range []string{root, other} {
		dir := filepath.Join(tmp, string(rune('a'+i)))
		res := run(t, src, gitEnv, mk, "-s", "release", "RELEASE_DIR="+dir, "RELEASE_PLATFORMS=linux/amd64", "RELEASE_ARGS=-image=false")
		if res.code != 0 {
			t.Fatalf("make release RELEASE_PLATFORMS=linux/amd64 in %s: %v", src, res)
		}
		dirs = append(dirs, dir)
	}
	files := []string{"SHA256SUMS", "siteforge-linux-amd64", "siteforge-linux-amd64.cdx.json"}
	for i, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if strings.Join(names, " ") != strings.Join(files, " ") {
			t.Errorf("build %d wrote %v, want %v", i+1, names, files)
		}
	}
	for _, f := range files {
		a, b := readFile(t, filepath.Join(dirs[0], f)), readFile(t, filepath.Join(dirs[1], f))
		if a != b {
			t.Errorf("%s differs between two builds of the same tree at two paths (%s, %s)", f, root, other)
		}
	}

	// SHA256SUMS: what sha256sum -c checks, and the right sums.
	sums := readFile(t, filepath.Join(dirs[0], "SHA256SUMS"))
	for _, f := range files[1:] {
		sum := sha256.Sum256([]byte(readFile(t, filepath.Join(dirs[0], f))))
		if line := hex.EncodeToString(sum[:]) + "  " + f + "\n"; !strings.Contains(sums, line) {
			t.Errorf("SHA256SUMS lacks %q:\n%s", line, sums)
		}
	}
	if _, err := exec.LookPath("sha256sum"); err != nil {
		t.Log("sha256sum is not installed: SHA256SUMS checked in Go only")
	} else if res := run(t, dirs[0], nil, "sha256sum", "-c", "SHA256SUMS"); res.code != 0 {
		t.Errorf("sha256sum -c SHA256SUMS: %v", res)
	}

	bin := filepath.Join(dirs[0], "siteforge-linux-amd64")
	bi, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	flags := map[string]string{}
	for _, s := range bi.Settings {
		flags[s.Key] = s.Value
	}
	for k, v := range map[string]string{"-trimpath": "true", "CGO_ENABLED": "0", "GOOS": "linux", "GOARCH": "amd64"} {
		if flags[k] != v {
			t.Errorf("built with %s=%q, want %q", k, flags[k], v)
		}
	}
	// The version: the CLI's link-time version, from git; in a clone the
	// go command stamps the same as the module version, with the commit.
	// (-trimpath leaves -ldflags out of the build settings: ask the binary)
	res := run(t, root, nil, bin, "version", "--format", "json")
	var reported struct{ Version string }
	if err := json.Unmarshal([]byte(res.stdout), &reported); err != nil || res.code != 0 {
		t.Fatalf("siteforge version --format json: %v: %v", err, res)
	}
	stamped := reported.Version
	head := git(t, root, "rev-parse", "HEAD")
	if !strings.Contains(stamped, head[:12]) && !strings.Contains(git(t, root, "tag", "--points-at", "HEAD"), strings.TrimSuffix(stamped, "+dirty")) {
		t.Errorf("siteforge version reports %q: want the tag at HEAD or a pseudo-version of %s", stamped, head[:12])
	}
	if fi, err := os.Stat(filepath.Join(root, ".git")); err == nil && fi.IsDir() {
		if flags["vcs.revision"] != head || bi.Main.Version != stamped {
			t.Errorf("a build from a clone at %s: vcs.revision %q, module version %q, want the commit and %s", head, flags["vcs.revision"], bi.Main.Version, stamped)
		}
	} else {
		t.Logf("%s/.git is not a folder (a linked worktree): the go command stamps no module version here (golang/go#58218), only -ldflags", root)
	}

	// The SBOM against the package graph.
	var sbom struct {
		BOMFormat, SpecVersion string
		Metadata               struct {
			Component struct{ Name, Version, PURL string }
		}
		Components []struct{ Type, Name, Version, PURL string }
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(readFile(t, bin+".cdx.json"))))
	if err := dec.Decode(&sbom); err != nil {
		t.Fatalf("the SBOM does not decode: %v", err)
	}
	if sbom.BOMFormat != "CycloneDX" || sbom.SpecVersion != "1.6" || sbom.Metadata.Component.Name != "github.com/siteforge/siteforge" {
		t.Errorf("SBOM header: %s %s, main component %q", sbom.BOMFormat, sbom.SpecVersion, sbom.Metadata.Component.Name)
	}
	list := run(t, root, []string{"CGO_ENABLED=0", "GOOS=linux", "GOARCH=amd64", "GOFLAGS=-mod=readonly"}, "go", "list", "-deps", "-f",
		"{{with .Module}}{{if not .Main}}{{with .Replace}}{{.Path}}@{{.Version}}{{else}}{{.Path}}@{{.Version}}{{end}}{{end}}{{end}}", "./cmd/siteforge")
	if list.code != 0 {
		t.Fatalf("go list -deps: %v", list)
	}
	want := map[string]bool{}
	for _, m := range strings.Fields(list.stdout) {
		want[m] = true
	}
	got := map[string]bool{}
	for _, c := range sbom.Components {
		if c.Name == "stdlib" {
			if c.Version != bi.GoVersion {
				t.Errorf("SBOM stdlib %s, the binary was built with %s", c.Version, bi.GoVersion)
			}
			continue
		}
		got[c.Name+"@"+c.Version] = true
		if wantPURL := "pkg:golang/" + c.Name + "@" + strings.ReplaceAll(c.Version, "+", "%2B"); c.PURL != wantPURL || c.Type != "library" {
			t.Errorf("SBOM component %s@%s: type %q, purl %q, want library, %q", c.Name, c.Version, c.Type, c.PURL, wantPURL)
		}
	}
	if !got["cuelang.org/go@"+moduleVersion(t, "cuelang.org/go")] {
		t.Errorf("the SBOM lacks cuelang.org/go at the go.mod version")
	}
	var missing, extra []string
	for m := range want {
		if !got[m] {
			missing = append(missing, m)
		}
	}
	for m := range got {
		if !want[m] {
			extra = append(extra, m)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 || len(extra) > 0 || len(want) == 0 {
		t.Errorf("SBOM against go list -deps (%d modules): missing %v, extra %v", len(want), missing, extra)
	}
	if !strings.Contains(readFile(t, bin+".cdx.json"), `"timestamp"`) && bi.Main.Version != "(devel)" {
		t.Errorf("the SBOM of a stamped build has no timestamp (the commit time)")
	}
	if sbom.Metadata.Component.Version != stamped {
		t.Errorf("the SBOM names siteforge at %q, the build is %s", sbom.Metadata.Component.Version, stamped)
	}
}

// makeCommand returns make, or skips loudly.
func makeCommand(t *testing.T) string {
	t.Helper()
	mk, err := exec.LookPath("make")
	if err != nil {
		t.Skip("SKIPPED: make is not installed, so `make release` is NOT tested (install make, a prerequisite in README.md)")
	}
	return mk
}

// moduleVersion is the version of a module the main module requires.
func moduleVersion(t *testing.T, path string) string {
	t.Helper()
	res := run(t, root, nil, "go", "list", "-m", "-f", "{{.Version}}", path)
	if res.code != 0 {
		t.Fatalf("go list -m %s: %v", path, res)
	}
	return strings.TrimSpace(res.stdout)
}
