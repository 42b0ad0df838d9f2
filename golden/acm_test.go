package golden

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/generators/acm"
	"github.com/siteforge/siteforge/internal/_fidelity"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/output"
	"github.com/siteforge/siteforge/internal/upstream"
)

// acmGolden is the folder of the hub policies of each bundled fleet with
// delivery.acm set: golden/acm/<example>/hub-policies.
const acmGolden = "acm"

// registerACM registers the ACM kinds with their upstream CRDs, or skips
// the test loudly when ../shared does not have them.
func registerACM(t *testing.T) {
	t.Helper()
	err := fidelity.RegisterUpstreamACM()
	if errors.Is(err, fidelity.ErrNoSharedCRD) {
		t.Skipf("SKIPPED: the ACM CRDs are not there, so no Policy, Placement, PlacementBinding or ManagedClusterSetBinding is validated: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// fleets are the bundled examples that are fleets (a sites/ folder).
func fleets(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, ex := range Examples {
		if fi, err := os.Stat(filepath.Join("examples", ex, "sites")); err == nil && fi.IsDir() {
			out = append(out, ex)
		}
	}
	if len(out) == 0 {
		t.Fatal("no bundled fleet")
	}
	return out
}

// withDelivery copies an example fleet into a temporary folder and sets
// delivery.acm to {} (every default) in its fleet defaults.
func withDelivery(t *testing.T, ex string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), ex)
	src := filepath.Join("examples", ex)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "delivery.cue"), []byte("package site\n\ndelivery: acm: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// hubPolicies renders a fleet folder and its hub policies.
func hubPolicies(t *testing.T, dir string) (map[string][]byte, acm.Stats) {
	t.Helper()
	res := load.Load([]string{dir})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("%s does not load:\n%v", dir, res.Diagnostics)
	}
	var f acm.Fleet
	for _, s := range res.Sites {
		o, err := generators.Render(s, generators.Options{})
		if err != nil {
			t.Fatalf("render %s: %v", s.Name, err)
		}
		in, ok, err := acm.FromOutput(o)
		if err != nil || !ok {
			t.Fatalf("site %s: no hub delivery (%v)", s.Name, err)
		}
		f.Add(in)
	}
	files, st, err := f.Files()
	if err != nil {
		t.Fatal(err)
	}
	return files, st
}

// TestACMDelivery: every bundled fleet renders with delivery.acm {}; every
// Policy (and the ConfigurationPolicy it holds), Placement,
// PlacementBinding and ManagedClusterSetBinding strictly decodes into its
// type and passes its upstream CRD's schema and CEL rules; every object a
// policy holds is a day-2 object of the sites, and passes its own checks;
// the PolicyGenerator configuration decodes strictly; the folder is
// golden/acm/<fleet>/hub-policies (UPDATE_GOLDEN=1 rewrites it).
func TestACMDelivery(t *testing.T) {
	t.Chdir("..")
	registerACM(t)
	update := os.Getenv("UPDATE_GOLDEN") != ""
	for _, ex := range fleets(t) {
		t.Run(ex, func(t *testing.T) {
			files, st := hubPolicies(t, withDelivery(t, ex))
			if st.Policies == 0 || st.Placements == 0 {
				t.Fatalf("no policy: %+v", st)
			}
			kinds := map[string]int{}
			for p, b := range files {
				switch {
				case filepath.Base(p) == generators.KustomizationFile:
				case p == "policygenerator/policygenerator.yaml":
					for _, doc := range strings.Split(string(b), "\n---\n")[1:] {
						var g upstream.PolicyGenerator
						if err := yaml.UnmarshalStrict([]byte(doc), &g); err != nil {
							t.Errorf("%s: %v", p, err)
						}
						kinds["PolicyGenerator"]++
					}
				default:
					if err := fidelity.CheckStream(b); err != nil {
						t.Errorf("%s: %v", p, err)
					}
					objs, d := manifests.ReadBytes(p, b)
					if len(d) > 0 {
						t.Fatalf("%s: %v", p, d)
					}
					for _, o := range objs {
						kinds[o.Kind]++
						if o.Kind != "Policy" {
							continue
						}
						var pol upstream.Policy
						if err := o.Decode(&pol); err != nil {
							t.Fatalf("%s: %v", p, err)
						}
						for _, tmpl := range pol.Spec.PolicyTemplates {
							// The template is created in the managed cluster's
							// namespace (the policy framework sets it): checked
							// as the cluster stores it.
							var cfg upstream.ConfigurationPolicy
							if err := json.Unmarshal(tmpl.ObjectDefinition, &cfg); err != nil {
								t.Fatal(err)
							}
							if cfg.Namespace != "" {
								t.Errorf("%s: policy %s: the template names namespace %s", p, pol.Name, cfg.Namespace)
							}
							cfg.Namespace = "cluster-namespace"
							stored, err := json.Marshal(&cfg)
							if err != nil {
								t.Fatal(err)
							}
							if err := fidelity.Check(stored); err != nil {
								t.Errorf("%s: policy %s: %v", p, pol.Name, err)
							}
							for _, ot := range cfg.Spec.ObjectTemplates {
								if err := fidelity.Check(ot.ObjectDefinition); err != nil {
									t.Errorf("%s: policy %s: %v", p, pol.Name, err)
								}
							}
						}
					}
				}
			}
			for _, k := range []string{"Policy", "Placement", "PlacementBinding", "ManagedClusterSetBinding", "PolicyGenerator"} {
				if kinds[k] == 0 {
					t.Errorf("no %s rendered", k)
				}
			}
			dir := filepath.Join("golden", acmGolden, ex)
			s := output.Site{Name: acm.Dir, Files: files}
			if update {
				if _, err := output.PrepareDir(dir); err != nil {
					t.Fatal(err)
				}
				if err := output.Write(dir, s); err != nil {
					t.Fatal(err)
				}
				return
			}
			diffs, err := output.Diff(dir, s)
			if err != nil {
				t.Fatal(err)
			}
			if len(diffs) > 0 {
				t.Errorf("golden hub policies differ from a fresh render (run make golden and review the diff):\n  %s", strings.Join(diffs, "\n  "))
			}
		})
	}
}
