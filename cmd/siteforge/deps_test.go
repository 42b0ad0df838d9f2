package main

import (
	"os/exec"
	"strings"
	"testing"
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
	if strings.Contains(string(out), "internal/fidelity") {
		t.Errorf("internal/fidelity is in ./... of the main module")
	}
}
