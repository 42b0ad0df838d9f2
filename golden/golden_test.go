// Package golden holds the rendered output of every example, one folder per
// example as `siteforge render examples/<example> -o golden/<example>` writes
// it. `make golden` (UPDATE_GOLDEN=1) rewrites them: review the diff.
package golden

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/generators"
	_ "github.com/siteforge/siteforge/generators/all"
	"github.com/siteforge/siteforge/internal/_fidelity"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/output"
	"github.com/siteforge/siteforge/internal/platform"
)

// Examples are the bundled examples, each rendered into golden/<name> (the
// kustomize example's site sits inside its kustomization folder).
var Examples = []string{"agent-sno", "aws-local-zones", "aws-local-zones-ipi", "disconnected-quay-cache", "fleet", "kustomize/site", "remote-quay-in-cluster", "remote-workers"}

// RenderExample renders an example as `siteforge render examples/<name>` run
// at the repository root would. The working directory must be the root.
func RenderExample(t testing.TB, name string) []*generators.Output {
	t.Helper()
	res := load.Load([]string{filepath.Join("examples", name)})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("example %s does not load:\n%v", name, res.Diagnostics)
	}
	var outs []*generators.Output
	for _, s := range res.Sites {
		o, err := generators.Render(s, generators.Options{})
		if err != nil {
			t.Fatalf("render %s: %v", s.Name, err)
		}
		outs = append(outs, o)
	}
	return outs
}

func TestGolden(t *testing.T) {
	t.Chdir("..")
	update := os.Getenv("UPDATE_GOLDEN") != ""
	for _, ex := range Examples {
		t.Run(ex, func(t *testing.T) {
			dir := filepath.Join("golden", ex)
			for _, o := range RenderExample(t, ex) {
				s := output.Site{Name: o.Site.Name, Files: o.Files}
				// Rendering twice gives the same bytes.
				again := RenderExample(t, ex)
				for _, o2 := range again {
					if o2.Site.Name == o.Site.Name {
						for p, b := range o2.Files {
							if string(b) != string(o.Files[p]) {
								t.Errorf("%s/%s: two renders differ", o.Site.Name, p)
							}
						}
					}
				}
				if update {
					if _, err := output.PrepareDir(dir); err != nil {
						t.Fatal(err)
					}
					if err := output.Write(dir, s); err != nil {
						t.Fatal(err)
					}
					continue
				}
				diffs, err := output.Diff(dir, s)
				if err != nil {
					t.Fatal(err)
				}
				if len(diffs) > 0 {
					t.Errorf("golden files differ from a fresh render (run make golden and review the diff):\n  %s", strings.Join(diffs, "\n  "))
				}
			}
		})
	}
}

// TestKustomizeBuild runs the real kustomize on every golden site folder.
// make test installs the pinned kustomize and sets KUSTOMIZE.
func TestKustomizeBuild(t *testing.T) {
	kustomize := os.Getenv("KUSTOMIZE")
	if kustomize == "" {
		t.Skip("KUSTOMIZE is not set: run through `make test`, which installs the pinned kustomize")
	}
	t.Chdir("..")
	for _, ex := range Examples {
		for _, o := range RenderExample(t, ex) {
			// Every site folder builds, also one without day-2 resources.
			dir := filepath.Join("golden", ex, o.Site.Name)
			cmd := exec.Command(kustomize, "build", dir)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("kustomize build %s: %v\n%s", dir, err, out)
				continue
			}
			if len(o.Resources) == 0 {
				if strings.TrimSpace(string(out)) != "" {
					t.Errorf("kustomize build %s of a site without resources printed objects:\n%s", dir, out)
				}
				continue
			}
			if want := string(o.Stream()); !strings.Contains(string(out), "kind:") || len(want) == 0 {
				t.Errorf("kustomize build %s printed no objects", dir)
			}
		}
	}
	// The hub policies of each fleet build too (delivery.acm, TestACMDelivery).
	dirs, _ := filepath.Glob(filepath.Join("golden", acmGolden, "*", "hub-policies"))
	if len(dirs) == 0 {
		t.Error("no golden hub policies")
	}
	for _, dir := range dirs {
		out, err := exec.Command(kustomize, "build", dir).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "\nkind: Policy\n") {
			t.Errorf("kustomize build %s: %v\n%s", dir, err, out)
		}
	}
}

// TestGoldenFidelity runs the fidelity harness over every golden output:
// every whole object (resources, and installer manifests) decodes strictly
// into its openshift/api type and passes the CRD schema, CEL and pruning
// checks (MachineConfigs also Ignition validation); every registries.conf
// loads in containers/image. Fragments and patches are not whole objects.
func TestGoldenFidelity(t *testing.T) {
	checked := 0
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && p == acmGolden {
			return filepath.SkipDir // streams of ACM kinds whose CRDs are upstream data: TestACMDelivery
		}
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		switch filepath.Ext(p) {
		case ".conf":
			checked++
			if err := fidelity.CheckRegistriesConf(data); err != nil {
				t.Errorf("%s: %v", p, err)
			}
		case ".yaml", ".yml":
			if filepath.Base(p) == generators.KustomizationFile || installerInput[filepath.Base(p)] || !wholeObject(data) {
				return nil
			}
			if kindOf(data) == platform.ClusterInstanceKind {
				return nil // its CRD is upstream data: TestGoldenClusterInstances
			}
			checked++
			if err := fidelity.Check(data); err != nil {
				t.Errorf("%s: %v", p, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no golden output checked")
	}
}

// installerInput are the installer's own input files: not cluster objects, so
// not for the fidelity harness; generators/install's tests decode them
// strictly into the installer's types (TestAgentExamples, TestAWSIPIExample).
var installerInput = map[string]bool{platform.InstallConfigFile: true, platform.AgentConfigFile: true}

// wholeObject reports whether a YAML file is one complete Kubernetes object.
func wholeObject(data []byte) bool {
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	return yaml.Unmarshal(data, &head) == nil && head.APIVersion != "" && head.Kind != "" && head.Metadata.Name != ""
}

// Golden files name sites relative to the repository root, whether or not
// the checkout has a .git folder.
func init() { load.SetRepoRoot("..") }

// kindOf is the kind of a YAML object, or "".
func kindOf(data []byte) string {
	var head struct{ Kind string }
	_ = yaml.Unmarshal(data, &head)
	return head.Kind
}

// nonSiteExamples are the folders of examples/ that hold no site: the Argo
// CD ApplicationSet, the GitHub workflow, and the kustomize root whose site
// is kustomize/site.
var nonSiteExamples = map[string]bool{"argocd": true, "github": true, "kustomize": true}

// TestExamplesStrict: every bundled example renders under --strict (the
// bundled ApplicationSet sets SITEFORGE_STRICT=true): no render warning is
// left, and each one an example suppresses carries its rule ID, dropped by a
// suppression with a reason. Every folder of examples/ is a listed example
// or a known non-site folder, so a new example is not left out.
func TestExamplesStrict(t *testing.T) {
	t.Chdir("..")
	entries, err := os.ReadDir("examples")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && !nonSiteExamples[e.Name()] && !slices.Contains(Examples, e.Name()) {
			t.Errorf("examples/%s is neither in Examples nor in nonSiteExamples", e.Name())
		}
	}
	for _, ex := range Examples {
		res := load.Load([]string{filepath.Join("examples", ex)})
		if len(res.Diagnostics) > 0 {
			t.Fatalf("example %s does not load:\n%v", ex, res.Diagnostics)
		}
		for _, s := range res.Sites {
			o, err := generators.Render(s, generators.Options{Strict: true})
			if err != nil {
				t.Errorf("siteforge render --strict examples/%s (site %s):\n%v", ex, s.Name, err)
				continue
			}
			for _, w := range o.Suppressed {
				if w.Rule == "" {
					t.Errorf("example %s: suppressed warning without a rule ID: %v", ex, w)
				}
			}
		}
	}
}
