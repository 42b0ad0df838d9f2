//go:build release

// Command release builds siteforge's release files (`make release`), from
// the checkout it runs in:
//
//   - a binary per platform (CGO_ENABLED=0: static on linux; -trimpath; the
//     microarchitecture levels pinned, GOFLAGS of the environment left out),
//     siteforge-<os>-<arch>: reproducible, the same bytes from the same
//     commit and Go toolchain on any machine;
//   - the version stamped by the go command from git (-buildvcs=true, Go
//     1.24 and later: the tag at HEAD, else a pseudo-version, "+dirty" for
//     uncommitted changes; `go version -m` shows it, `siteforge version`
//     prints it), and the same version, derived from git here
//     (gitVersion), in the CLI's link-time version (-ldflags -X): the go
//     command stamps only a checkout whose .git is a folder, a linked git
//     worktree (.git is a file) gets no stamp (golang/go#58218), and the
//     tool says so loudly;
//   - a CycloneDX SBOM per binary, siteforge-<os>-<arch>.cdx.json, from the
//     module graph recorded in the binary itself (debug/buildinfo: every
//     module linked in, with its version and go.sum hash, the Go standard
//     library, the build settings): no network, no other tool;
//   - SHA256SUMS over all of them, in the format `sha256sum -c` checks;
//   - the container image (Containerfile, linux platforms only) with podman
//     or buildah when one is on PATH; otherwise a loud SKIPPED block.
//
// Build-tagged: not part of `go install ./...`.
//
//	go run -tags release ./internal/release -o DIR [-n] [-image=false] OS/ARCH...
package main

import (
	"bytes"
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
)

// binaryPrefix names every binary and SBOM; SumsFile lists their SHA-256.
const (
	binaryPrefix  = "siteforge-"
	sumsFile      = "SHA256SUMS"
	mainPackage   = "./cmd/siteforge"
	imageName     = "siteforge"
	containerfile = "Containerfile"
)

func main() {
	out := flag.String("o", "", "the folder to write the release into (created; earlier release files in it are replaced)")
	dry := flag.Bool("n", false, "print the files and the image build it would make, build nothing")
	image := flag.Bool("image", true, "build the container image when podman or buildah is on PATH")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: release -o DIR [-n] [-image=false] OS/ARCH...")
		os.Exit(2)
	}
	if err := run(os.Stdout, *out, flag.Args(), *dry, *image); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

// platform is one GOOS/GOARCH pair.
type platform struct{ os, arch string }

func (p platform) binary() string { return binaryPrefix + p.os + "-" + p.arch }
func (p platform) sbom() string   { return p.binary() + ".cdx.json" }

func parsePlatforms(args []string) ([]platform, error) {
	var ps []platform
	seen := map[platform]bool{}
	for _, a := range args {
		goos, goarch, ok := strings.Cut(a, "/")
		if !ok || goos == "" || goarch == "" || strings.Contains(goarch, "/") {
			return nil, fmt.Errorf("platform %q: want OS/ARCH, e.g. linux/amd64", a)
		}
		p := platform{goos, goarch}
		if !seen[p] {
			seen[p] = true
			ps = append(ps, p)
		}
	}
	return ps, nil
}

func run(w io.Writer, dir string, args []string, dry, wantImage bool) error {
	ps, err := parsePlatforms(args)
	if err != nil {
		return err
	}
	var files []string
	for _, p := range ps {
		files = append(files, p.binary(), p.sbom())
	}
	files = append(files, sumsFile)
	img := imageBuild(ps, dir, wantImage)
	if dry {
		for _, f := range files {
			fmt.Fprintln(w, filepath.Join(dir, f))
		}
		img.describe(w, "")
		return nil
	}

	if err := clear(dir); err != nil {
		return err
	}
	version, err := gitVersion()
	if err != nil {
		return err
	}
	for _, p := range ps {
		bin := filepath.Join(dir, p.binary())
		if err := build(p, bin, version); err != nil {
			return err
		}
		bi, err := buildinfo.ReadFile(bin)
		if err != nil {
			return fmt.Errorf("%s: %w", bin, err)
		}
		if stamped := bi.Main.Version; stamped != "(devel)" && stamped != "" && stamped != version {
			return fmt.Errorf("%s: the go command stamped version %s, git gives %s: report this mismatch", bin, stamped, version)
		}
		doc, err := json.MarshalIndent(cycloneDX(bi, p, version), "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, p.sbom()), append(doc, '\n'), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(w, "built %s (%s), %s\n", bin, version, p.sbom())
		if setting(bi, "vcs.revision") == "" {
			fmt.Fprint(w, banner(
				"WARNING: "+p.binary()+" carries NO VCS build settings:",
				"the go command stamps them only in a checkout whose .git is a",
				"folder, not in a linked git worktree (golang/go#58218) nor outside",
				"git. `siteforge version` reports (-ldflags -X):",
				"  "+orDevel(version),
				"Build a release from a clone."))
		}
	}
	if err := writeSums(dir, files[:len(files)-1]); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s\n", filepath.Join(dir, sumsFile))
	return img.run(w, version)
}

// clear makes dir and removes the release files of an earlier run from it;
// a folder holding anything else is refused, so a mistyped -o removes
// nothing of the user's.
func clear(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() != sumsFile && !strings.HasPrefix(e.Name(), binaryPrefix) {
			return fmt.Errorf("%s holds %s, which is no release file: give an empty or new folder", dir, e.Name())
		}
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// build runs the go command for one platform, stamping version (when
// there is one) into the CLI's link-time version too. The environment's
// GOFLAGS (a -tags, -ldflags or -buildvcs=false of the user's) and the
// microarchitecture levels are set, not inherited: the same commit and
// toolchain give the same bytes.
func build(p platform, bin, version string) error {
	args := []string{"build", "-trimpath", "-buildvcs=true"}
	if version != "" {
		args = append(args, "-ldflags=-X "+versionVar+"="+version)
	}
	cmd := exec.Command("go", append(args, "-o", bin, mainPackage)...)
	cmd.Env = append(os.Environ(),
		"CGO_ENABLED=0", "GOOS="+p.os, "GOARCH="+p.arch,
		"GOFLAGS=-mod=readonly", "GOAMD64=v1", "GOARM64=v8.0", "GO386=sse2", "GOARM=7")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s/%s: %v\n%s", p.os, p.arch, err, stderr.String())
	}
	return nil
}

// writeSums writes SHA256SUMS: "<hex>  <name>" per file, sorted by name,
// as sha256sum(1) writes and checks it.
func writeSums(dir string, names []string) error {
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), n)
	}
	return os.WriteFile(filepath.Join(dir, sumsFile), []byte(b.String()), 0o644)
}

func orDevel(version string) string {
	if version == "" {
		return "its development version"
	}
	return version
}

func setting(bi *debug.BuildInfo, key string) string {
	for _, s := range bi.Settings {
		if s.Key == key {
			return s.Value
		}
	}
	return ""
}

// banner is the loud block the Makefile prints for a skipped step.
func banner(lines ...string) string {
	rule := strings.Repeat("*", 76)
	var b strings.Builder
	b.WriteString(rule + "\n")
	for _, l := range lines {
		fmt.Fprintf(&b, "* %-72s *\n", l)
	}
	b.WriteString(rule + "\n")
	return b.String()
}

// image is the container image build: the tool (podman or buildah), or
// why there is none.
type image struct {
	tool, skip string
	platforms  []string
	dir        string
}

func imageBuild(ps []platform, dir string, want bool) image {
	img := image{dir: dir}
	for _, p := range ps {
		if p.os == "linux" {
			img.platforms = append(img.platforms, p.os+"/"+p.arch)
		}
	}
	switch {
	case !want:
		img.skip = "the container image was not asked for (-image=false)"
	case len(img.platforms) == 0:
		img.skip = "no linux platform among the binaries: no container image"
	default:
		for _, t := range []string{"podman", "buildah"} {
			if _, err := exec.LookPath(t); err == nil {
				img.tool = t
				return img
			}
		}
		img.skip = "neither podman nor buildah is on PATH"
	}
	return img
}

// tag is the image tag of a module version: a tag allows no "+", and a
// build without a version is "devel".
func tag(version string) string {
	if version == "" || version == "(devel)" {
		return "devel"
	}
	return strings.ReplaceAll(version, "+", "-")
}

func (img image) args(version string) []string {
	return []string{"build", "--platform", strings.Join(img.platforms, ","),
		"--manifest", imageName + ":" + tag(version), "-f", containerfile, img.dir}
}

func (img image) describe(w io.Writer, version string) {
	switch {
	case img.tool != "":
		fmt.Fprintf(w, "image: %s %s\n", img.tool, strings.Join(img.args(version), " "))
	case strings.HasPrefix(img.skip, "neither"):
		fmt.Fprint(w, banner("SKIPPED: the container image was NOT built:",
			img.skip+" (docker is not used).",
			"Install podman or buildah and run make release again."))
	default:
		fmt.Fprintf(w, "image: skipped: %s\n", img.skip)
	}
}

// run builds the image as a manifest list of the linux binaries (the
// Containerfile copies siteforge-linux-<arch> for each --platform), after
// removing one of the same name, which --manifest would add to.
func (img image) run(w io.Writer, version string) error {
	if img.tool == "" {
		img.describe(w, version)
		return nil
	}
	rm := exec.Command(img.tool, "manifest", "rm", imageName+":"+tag(version))
	rm.Run() // absent: nothing to remove
	img.describe(w, version)
	cmd := exec.Command(img.tool, img.args(version)...)
	cmd.Stdout, cmd.Stderr = w, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s build: %w", img.tool, err)
	}
	return nil
}
