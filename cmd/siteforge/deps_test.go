package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestDependencyFootprint: what `go install ./...` builds (the pre-commit
// golang hook does exactly that) is the binary's dependency graph plus at
// most 10%: the validation harness and its API server, CEL and gRPC
// dependencies live in their own module (internal/fidelity), dev tools
// behind build tags.
func TestDependencyFootprint(t *testing.T) {
	count := func(pattern string) int {
		out, err := exec.Command("go", "list", "-deps", pattern).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pattern, err)
		}
		return len(strings.Fields(string(out)))
	}
	t.Chdir("../..")
	all, bin := count("./..."), count("./cmd/siteforge")
	t.Logf("go list -deps: ./... %d packages, ./cmd/siteforge %d", all, bin)
	if all*10 > bin*11 {
		t.Errorf("go list -deps ./... lists %d packages, more than 10%% above the %d of ./cmd/siteforge: keep test harnesses and dev tools out of the module's build graph", all, bin)
	}
	out, err := exec.Command("go", "list", "./...").Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "fidelity") {
		t.Errorf("the validation harness is in ./... of the main module")
	}
}

// TestGoInstallAtVersion: `go install github.com/siteforge/siteforge/cmd/siteforge@vX`
// (the install step of examples/github/siteforge.yml) works only when the
// module's go.mod has no replace or exclude directive (cmd/go refuses
// them: "The go.mod file for the module providing named packages contains
// one or more replace directives") and requires no module nested in this
// repository (a module zip leaves nested modules out).
func TestGoInstallAtVersion(t *testing.T) {
	data, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Replace) > 0 || len(f.Exclude) > 0 {
		t.Errorf("go.mod has %d replace and %d exclude directives: go install ...@version refuses the module", len(f.Replace), len(f.Exclude))
	}
	for _, r := range f.Require {
		if strings.HasPrefix(r.Mod.Path, f.Module.Mod.Path+"/") {
			t.Errorf("go.mod requires %s, a module nested in this repository", r.Mod.Path)
		}
	}
	nested, _ := filepath.Glob("../../*/*/go.mod")
	more, _ := filepath.Glob("../../*/go.mod")
	if len(nested)+len(more) > 0 {
		t.Errorf("nested modules %v: module zips leave them out", append(nested, more...))
	}
}

// TestSupervisorImportsLight: the supervisor starts the worker from the
// initialisation of guard/super, which Go runs once its imports are
// initialised (The Go Programming Language Specification, "Package
// initialization"). What it imports is initialised in the supervisor too:
// none of the heavy packages only the worker needs may be among them, or
// every run pays their start twice.
func TestSupervisorImportsLight(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/siteforge/siteforge/cmd/siteforge/internal/guard/super").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range strings.Fields(string(out)) {
		for _, heavy := range []string{"cuelang.org/", "github.com/openshift/", "k8s.io/", "sigs.k8s.io/", "google.golang.org/protobuf", "github.com/cockroachdb/", "go.podman.io/", "github.com/coreos/butane", "github.com/spf13/"} {
			if strings.HasPrefix(p, heavy) {
				t.Errorf("guard/super imports %s (through its imports): the supervisor would initialise it too", p)
			}
		}
	}
}

// TestManifestReadersBelowTheCluster: the manifest readers (one reader per
// kind, a running cluster's state) sit below what the cluster does with
// them and below the site model (docs/architecture.md, "Checking the
// layers"): internal/cluster imports them, never the other way.
func TestManifestReadersBelowTheCluster(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/siteforge/siteforge/internal/manifests").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "github.com/siteforge/siteforge/internal/cluster/") || p == "github.com/siteforge/siteforge/internal/site" {
			t.Errorf("internal/manifests imports %s", p)
		}
	}
}
