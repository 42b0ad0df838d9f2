package disruption

import (
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/platform"
)

// TestCompareRegistriesConf derives from MCO pkg/daemon/drain_test.go
// TestIsDrainRequired (pkg/daemon/drain.go isSafeContainerRegistryConfChanges):
// a registries.conf change reloads CRI-O, and drains first unless it is safe.
// Each case runs before NodeDisruptionPolicy (isDrainRequired) and with the
// default policies (the Special action, isDrainRequiredForNodeDisruptionActions).
func TestCompareRegistriesConf(t *testing.T) {
	const search = "unqualified-search-registries = [\"registry.access.redhat.com\", \"docker.io\"]\n"
	const digestMirror = search + `
[[registry]]
  prefix = ""
  location = "quay.io/app"

  [[registry.mirror]]
    location = "mirror.example.com/app"
    pull-from-mirror = "digest-only"
`
	tests := []struct {
		name     string
		old, new string
		want     Action
		wantIn   string
	}{
		// upstream "skip drain: only new registry added with pull-from-mirror=digest-only"
		{"added digest-only registry reloads", search, digestMirror, Reload, "no drain"},
		// upstream "skip drain: only new mirrors got added to the registry with pull-from-mirror=digest-only"
		{"added digest-only mirror reloads", digestMirror, digestMirror + `
  [[registry.mirror]]
    location = "mirror2.example.com/app"
    pull-from-mirror = "digest-only"
`, Reload, "no drain"},
		// upstream "perform drain: mirror removed"
		{"removed mirror drains", digestMirror + `
  [[registry.mirror]]
    location = "mirror2.example.com/app"
    pull-from-mirror = "digest-only"
`, digestMirror, Drain, "mirror mirror2.example.com/app is removed"},
		// upstream "perform drain: registry removed"
		{"removed registry drains", digestMirror, search, Drain, "registry quay.io/app is removed"},
		// an added tag mirror (ImageTagMirrorSet: pull-from-mirror = "tag-only")
		{"added tag-only mirror drains", digestMirror, digestMirror + `
  [[registry.mirror]]
    location = "tags.example.com/app"
    pull-from-mirror = "tag-only"
`, Drain, "tags.example.com/app is added without"},
		// upstream "perform drain: only new registry added with mirror-by-digest-only set to false"
		{"added registry with mirror-by-digest-only false drains", search, search + `
[[registry]]
  location = "quay.io/app"
  mirror-by-digest-only = false

  [[registry.mirror]]
    location = "mirror.example.com/app"
`, Drain, "registry quay.io/app is added"},
		// allDigestOnlyMirror: with mirrors, only their pull-from-mirror counts
		{"added registry mirror-by-digest-only with plain mirrors drains", search, search + `
[[registry]]
  location = "quay.io/app"
  mirror-by-digest-only = true

  [[registry.mirror]]
    location = "mirror.example.com/app"
`, Drain, "registry quay.io/app is added"},
		// upstream "skip drain: only new mirror added to registry with mirror-by-digest-only set to true"
		{"added mirror to a mirror-by-digest-only registry reloads", search + `
[[registry]]
  location = "quay.io/app"
  mirror-by-digest-only = true

  [[registry.mirror]]
    location = "mirror.example.com/app"
`, search + `
[[registry]]
  location = "quay.io/app"
  mirror-by-digest-only = true

  [[registry.mirror]]
    location = "mirror.example.com/app"

  [[registry.mirror]]
    location = "mirror2.example.com/app"
`, Reload, "no drain"},
		// upstream "perform drain: blocked value of one or more registry has changed"
		{"blocked change drains", digestMirror, strings.Replace(digestMirror, `location = "quay.io/app"`, "location = \"quay.io/app\"\n  blocked = true", 1), Drain, "blocked changes"},
		{"insecure change drains", digestMirror, strings.Replace(digestMirror, `location = "quay.io/app"`, "location = \"quay.io/app\"\n  insecure = true", 1), Drain, "insecure changes"},
		// upstream "perform drain: either item from unqualified-search-registries has been removed or ordering has been changed"
		{"search list reordered drains", search, "unqualified-search-registries = [\"docker.io\", \"registry.access.redhat.com\"]\n", Drain, "unqualified-search-registries"},
		// upstream "skip drain: only additional unqualified-search-registries has been added"
		{"search list appended reloads", search, "unqualified-search-registries = [\"registry.access.redhat.com\", \"docker.io\", \"quay.io\"]\n", Reload, "no drain"},
		// pull-from-mirror of an existing mirror changed to something other than digest-only
		{"existing mirror turned to all drains", digestMirror, strings.Replace(digestMirror, `"digest-only"`, `"all"`, 1), Drain, "pull-from-mirror changes"},
		{"not TOML fails", search, "[[registry]\n", Drain, "cannot read registries.conf"},
	}
	for _, tc := range tests {
		for _, minor := range []platform.OCPMinor{pre, post} {
			t.Run(tc.name+"/"+minor.String(), func(t *testing.T) {
				old := mcOpts{name: "99-worker-generated-registries", files: []file{{platform.RegistriesConfPath, tc.old}}}
				new := mcOpts{name: "99-worker-generated-registries", files: []file{{platform.RegistriesConfPath, tc.new}}}
				got := Compare(render(t, minor, mc(t, old)), render(t, minor, mc(t, new)), nil, minor)
				if len(got) != 1 || got[0].Path != platform.RegistriesConfPath {
					t.Fatalf("want one registries.conf change:%s", describe(got))
				}
				if got[0].Action != tc.want || !strings.Contains(got[0].Reason, tc.wantIn) {
					t.Errorf("got %s, want %s with %q:%s", got[0].Action, tc.want, tc.wantIn, describe(got))
				}
			})
		}
	}
}

// TestCompareRegistriesConfUserPolicy: a user policy for registries.conf
// replaces the Special default (MergeClusterPolicies), so MCO no longer
// checks whether the change is safe: only Drain or Reboot actions drain
// (isDrainRequiredForNodeDisruptionActions).
func TestCompareRegistriesConfUserPolicy(t *testing.T) {
	old := mcOpts{name: "99-worker-generated-registries", files: []file{{platform.RegistriesConfPath, "[[registry]]\nlocation = \"quay.io/a\"\n"}}}
	new := mcOpts{name: "99-worker-generated-registries", files: []file{{platform.RegistriesConfPath, ""}}} // registry removed: unsafe
	pol := &NodeDisruptionPolicy{}
	pol.User.Files = append(pol.User.Files, policyFile(platform.RegistriesConfPath))
	pol.User.Files[0].Actions = append(pol.User.Files[0].Actions, restartCrioSpec())
	got := Compare(render(t, post, mc(t, old)), render(t, post, mc(t, new)), pol, post)
	if PoolAction(got) != Restart {
		t.Fatalf("user policy restart: %s", describe(got))
	}
	if got := Compare(render(t, post, mc(t, old)), render(t, post, mc(t, new)), nil, post); PoolAction(got) != Drain {
		t.Fatalf("default policy: %s", describe(got))
	}
}

// TestCompareRegistriesConf412: release-4.12 MCO (pkg/daemon/drain.go
// isSafeContainerRegistryConfChanges, drain_test.go TestIsDrainRequired
// "skip drain: only new registry added with mirror-by-digest-only set to
// true") judges by the registry's mirror-by-digest-only, which is what
// ImageContentSourcePolicies write; 4.13 judges by pull-from-mirror.
func TestCompareRegistriesConf412(t *testing.T) {
	const search = "unqualified-search-registries = [\"registry.access.redhat.com\", \"docker.io\"]\n"
	icsp := func(mirrors ...string) string {
		s := search + "\n[[registry]]\n  location = \"quay.io/app\"\n  mirror-by-digest-only = true\n"
		for _, m := range mirrors {
			s += "\n  [[registry.mirror]]\n    location = \"" + m + "\"\n"
		}
		return s
	}
	for _, tc := range []struct {
		name     string
		minor    platform.OCPMinor
		old, new string
		want     Action
	}{
		{"added ICSP registry on 4.12", 12, search, icsp("mirror.example.com/app"), Reload},
		{"added ICSP registry on 4.13", 13, search, icsp("mirror.example.com/app"), Drain},
		{"added mirror to an ICSP registry on 4.12", 12, icsp("a.example.com/app"), icsp("a.example.com/app", "b.example.com/app"), Reload},
		{"removed mirror on 4.12", 12, icsp("a.example.com/app", "b.example.com/app"), icsp("a.example.com/app"), Drain},
		{"mirror-by-digest-only turned off on 4.12", 12, icsp("a.example.com/app"), strings.Replace(icsp("a.example.com/app"), "true", "false", 1), Drain},
		{"added registry without mirror-by-digest-only on 4.12", 12, search, strings.Replace(icsp("a.example.com/app"), "true", "false", 1), Drain},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := mcOpts{name: "99-worker-generated-registries", files: []file{{platform.RegistriesConfPath, tc.old}}}
			new := mcOpts{name: "99-worker-generated-registries", files: []file{{platform.RegistriesConfPath, tc.new}}}
			got := Compare(render(t, tc.minor, mc(t, old)), render(t, tc.minor, mc(t, new)), nil, tc.minor)
			if len(got) != 1 || got[0].Action != tc.want {
				t.Errorf("want %s:%s", tc.want, describe(got))
			}
		})
	}
}
