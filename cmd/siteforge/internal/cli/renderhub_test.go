package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenderHubPolicies: a fleet that sets delivery.acm gets DIR/hub-policies
// beside its sites; a second render, whose sites the cache keeps, writes the
// same folder from the kept site folders; --check agrees with and without
// the cache, and sees an edited policy file.
func TestRenderHubPolicies(t *testing.T) {
	repo := cacheRepo(t)
	write(t, repo, map[string]string{"fleet/delivery.cue": "package site\n\ndelivery: acm: {}\n"})
	first := mainIn(t, repo, "render", "fleet", "-o", "out")
	if got := rendered(t, first); len(got) != len(fleetSites) {
		t.Fatalf("first render evaluated %v", got)
	}
	if !strings.Contains(first.stdout, "rendered hub policies -> out/hub-policies") {
		t.Fatalf("no hub policies line:\n%s", first.stdout)
	}
	want := tree(t, filepath.Join(repo, "out", "hub-policies"))
	for _, f := range []string{"kustomization.yaml", "ztp-common/common.yaml", "ztp-common/namespace.yaml", "policygenerator/policygenerator.yaml"} {
		if _, ok := want[filepath.FromSlash(f)]; !ok {
			t.Errorf("hub-policies has no %s", f)
		}
	}
	second := mainIn(t, repo, "render", "fleet", "-o", "out")
	if got := rendered(t, second); len(got) != 0 {
		t.Fatalf("second render evaluated %v, want every site kept", got)
	}
	if got := tree(t, filepath.Join(repo, "out", "hub-policies")); !equalTrees(got, want) {
		t.Errorf("the hub policies of a render from kept sites differ from a fresh render's")
	}
	if r := checkAgrees(t, repo, "fleet", "-o", "out"); r.code != ExitOK {
		t.Errorf("check after render: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	write(t, repo, map[string]string{"out/hub-policies/ztp-common/common.yaml": "edited\n"})
	if r := checkAgrees(t, repo, "fleet", "-o", "out"); r.code != ExitFindings || !strings.Contains(r.stdout, "hub-policies") {
		t.Errorf("check after an edit: exit %d, want %d naming the file\n%s%s", r.code, ExitFindings, r.stdout, r.stderr)
	}
}

// TestRenderHubPoliciesRefused: sites that set delivery.acm differently, or
// a site whose cluster labels do not single it out for its own policy, are
// refused at the user's position, and nothing is written.
func TestRenderHubPoliciesRefused(t *testing.T) {
	repo := cacheRepo(t)
	write(t, repo, map[string]string{
		"fleet/delivery.cue":             "package site\n\ndelivery: acm: remediationAction: *\"inform\" | \"enforce\"\n",
		"fleet/sites/store-0002/acm.cue": "package site\n\ndelivery: acm: remediationAction: \"enforce\"\n",
	})
	r := mainIn(t, repo, "render", "fleet", "-o", "out")
	if r.code != ExitFailure || !strings.Contains(r.stderr, "store-0002") || !strings.Contains(r.stderr, "acm.cue:3:") {
		t.Errorf("different settings: exit %d, want %d at store-0002's acm.cue\n%s", r.code, ExitFailure, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(repo, "out")); err == nil {
		if got := tree(t, filepath.Join(repo, "out")); len(got) != 0 {
			t.Errorf("a refused render wrote %d files", len(got))
		}
	}
}

func equalTrees(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
