package fleetgen

import (
	"testing"

	"github.com/siteforge/siteforge/generators"
	_ "github.com/siteforge/siteforge/generators/all"
	"github.com/siteforge/siteforge/internal/load"
)

// TestFleetVets: every kind of synthetic site is valid and renders.
func TestFleetVets(t *testing.T) {
	dir := t.TempDir()
	if err := Write(dir, 8); err != nil {
		t.Fatal(err)
	}
	res := load.Load([]string{dir})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("synthetic fleet does not vet:\n%v", res.Diagnostics)
	}
	if len(res.Sites) != 8 {
		t.Fatalf("%d sites, want 8", len(res.Sites))
	}
	for _, s := range res.Sites {
		if _, err := generators.Render(s, generators.Options{}); err != nil {
			t.Errorf("site %s does not render: %v", s.Name, err)
		}
	}
	if Site(3) != Site(3) || Site(1) == Site(5) {
		t.Errorf("sites must be deterministic and distinct")
	}
}

// TestHubFleetVets: the hub-installed fleet, with and without delivery
// through the hub, is valid and renders.
func TestHubFleetVets(t *testing.T) {
	for _, acm := range []bool{false, true} {
		dir := t.TempDir()
		if err := WriteHub(dir, 20, acm); err != nil {
			t.Fatal(err)
		}
		res := load.Load([]string{dir})
		if len(res.Diagnostics) > 0 {
			t.Fatalf("synthetic hub fleet (acm %v) does not vet:\n%v", acm, res.Diagnostics)
		}
		for _, s := range res.Sites {
			if _, err := generators.Render(s, generators.Options{}); err != nil {
				t.Errorf("site %s does not render: %v", s.Name, err)
			}
			if (s.ACM() != nil) != acm {
				t.Errorf("site %s: delivery.acm set %v, want %v", s.Name, s.ACM() != nil, acm)
			}
		}
	}
}
