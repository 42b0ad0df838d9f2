package registries

import (
	"errors"
	"testing"
)

func TestCacheDropInRefusals(t *testing.T) {
	routes := []CacheRoute{{Upstream: "registry.redhat.io", Mirror: "cache.example.com/rh"}}
	blocked := &Config{Registries: []Registry{{Location: "registry.redhat.io", Blocked: true, Mirrors: []Mirror{{Location: "mirror.example.com/rh"}}}}}
	if _, err := CacheDropIn(blocked, routes, nil); !errors.Is(err, ErrCacheSourceBlocked) {
		t.Errorf("a blocked cached upstream: %v, want ErrCacheSourceBlocked", err)
	}
	wildcard := &Config{Registries: []Registry{{Prefix: "*.redhat.io", Mirrors: []Mirror{{Location: "mirror.example.com"}}}}}
	if _, err := CacheDropIn(wildcard, routes, nil); !errors.Is(err, ErrCacheUnderWildcard) {
		t.Errorf("under a wildcard table: %v, want ErrCacheUnderWildcard", err)
	}
}

// TestCacheDropInBypass: a bypassed repository outside every cached upstream needs no table;
// one under an upstream gets a table with the base's mirrors moved to its path.
func TestCacheDropInBypass(t *testing.T) {
	base := &Config{Registries: []Registry{{Location: "registry.redhat.io", Mirrors: []Mirror{{Location: "mirror.example.com/rh", PullFromMirror: PullFromMirrorDigestOnly}}}}}
	d, err := CacheDropIn(base, []CacheRoute{{Upstream: "registry.redhat.io", Mirror: "cache.example.com/rh"}},
		[]string{"registry.redhat.io/quay", "quay.io/openshift-release-dev/ocp-release"})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Registries) != 2 {
		t.Fatalf("tables %+v, want registry.redhat.io and registry.redhat.io/quay", d.Registries)
	}
	up, quay := d.Registries[0], d.Registries[1]
	if up.Location != "registry.redhat.io" || len(up.Mirrors) != 2 || up.Mirrors[0].Location != "cache.example.com/rh" || up.Mirrors[1].Location != "mirror.example.com/rh" || up.Blocked {
		t.Errorf("upstream table %+v", up)
	}
	if quay.Location != "registry.redhat.io/quay" || len(quay.Mirrors) != 1 || quay.Mirrors[0].Location != "mirror.example.com/rh/quay" || quay.Mirrors[0].PullFromMirror != PullFromMirrorDigestOnly {
		t.Errorf("bypass table %+v", quay)
	}
}
