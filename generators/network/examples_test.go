package network

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/_fidelity"
	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/platform"
)

// renderAll renders every site under path (a site or a fleet).
func renderAll(t *testing.T, path string, strict bool) []*generators.Output {
	t.Helper()
	res := load.Load([]string{path})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("load %s:\n%v", path, res.Diagnostics)
	}
	var outs []*generators.Output
	for _, s := range res.Sites {
		o, err := generators.Render(s, generators.Options{Strict: strict})
		if err != nil {
			t.Fatalf("render %s: %v", s.Name, err)
		}
		again, err := generators.Render(s, generators.Options{Strict: strict})
		if err != nil || !reflect.DeepEqual(o.Files, again.Files) {
			t.Fatalf("render %s: two renders differ (%v)", s.Name, err)
		}
		outs = append(outs, o)
	}
	return outs
}

// decode reads a YAML or JSON file of the output into a map.
func decode(t *testing.T, o *generators.Output, path string) map[string]any {
	t.Helper()
	b, ok := o.Files[path]
	if m, day0 := o.Day0[path]; !ok && day0 {
		b, ok = m.Data, true
	}
	if !ok {
		t.Fatalf("%s: no file %s (have %v)", o.Site.Name, path, o.Paths())
	}
	var m map[string]any
	if err := yaml.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

func lookup(m map[string]any, keys ...string) (any, bool) {
	var v any = m
	for _, k := range keys {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = mm[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

func TestAWSLocalZonesExample(t *testing.T) {
	outs := renderAll(t, "../../examples/aws-local-zones", true)
	o := outs[0]
	wantFiles := []string{
		mtuPhase1PatchJSON, mtuPhase1Kustomize, mtuPhase1PatchYAML,
		mtuPhase2PatchJSON, mtuPhase2Kustomize, mtuPhase2PatchYAML,
		mtuRunbook, generators.KustomizationFile,
	}
	sort.Strings(wantFiles)
	if got := o.Paths(); !reflect.DeepEqual(got, wantFiles) {
		t.Errorf("files = %v\nwant %v", got, wantFiles)
	}
	if len(o.Resources) != 0 {
		t.Errorf("resources %v: the migration must not be applied by a kustomize sync", o.Resources)
	}
	for _, p := range []string{mtuPhase1PatchYAML, mtuPhase1PatchJSON} {
		m := decode(t, o, p)
		for keys, want := range map[string]float64{
			"spec.migration.mtu.network.from": 8901,
			"spec.migration.mtu.network.to":   1200,
			"spec.migration.mtu.machine.to":   9001,
		} {
			if v, _ := lookup(m, strings.Split(keys, ".")...); v != want {
				t.Errorf("%s: %s = %v, want %v", p, keys, v, want)
			}
		}
		if _, ok := lookup(m, "spec", "migration", "mtu", "machine", "from"); ok {
			t.Errorf("%s: machine.from is optional and left out, as in the docs", p)
		}
	}
	for _, p := range []string{mtuPhase2PatchYAML, mtuPhase2PatchJSON} {
		m := decode(t, o, p)
		if v, ok := lookup(m, "spec", "migration"); !ok || v != nil {
			t.Errorf("%s: spec.migration = %v (present %v), want null", p, v, ok)
		}
		if v, _ := lookup(m, "spec", "defaultNetwork", "ovnKubernetesConfig", "mtu"); v != float64(1200) {
			t.Errorf("%s: ovnKubernetesConfig.mtu = %v, want 1200", p, v)
		}
	}
	rb := string(o.Files[mtuRunbook])
	for _, want := range []string{
		"8901 -> 1200",
		"oc patch network.operator.openshift.io cluster --type=merge --patch-file " + mtuPhase1PatchYAML,
		"oc patch network.operator.openshift.io cluster --type=merge --patch-file " + mtuPhase2PatchYAML,
		"oc wait mcp --all --for=condition=Updated=True",
		"| edge | worker | 2 | 1 | - | 1 | 4 (2 per node) |",
		"In all: 16 node reboots.",
		"No NetworkManager MachineConfig is needed",
	} {
		if !strings.Contains(rb, want) {
			t.Errorf("runbook lacks %q", want)
		}
	}
	// Phase 1 comes before phase 2 in the runbook.
	if strings.Index(rb, mtuPhase1PatchYAML) > strings.Index(rb, mtuPhase2PatchYAML) {
		t.Error("runbook applies phase 2 before phase 1")
	}

	p, err := mtu.Of(o.Site)
	if err != nil {
		t.Fatal(err)
	}
	binding := p.BindingLinks()
	if len(binding) == 0 {
		t.Fatal("no binding link")
	}
	for _, l := range binding {
		if !l.IsPath() || l.MTU != 1300 || !strings.Contains(l.Label(), "aws-local-zone") || !strings.Contains(l.Note, "Local Zone") {
			t.Errorf("binding link %s (%d, %q) is not the Local Zone path", l.Label(), l.MTU, l.Note)
		}
	}
	if p.Largest != 1200 || p.Target != 1200 || !p.MigrationDue() {
		t.Errorf("plan: largest %d target %d due %v", p.Largest, p.Target, p.MigrationDue())
	}
}

// TestInstallExamples: every example to install gets the day-0 operator
// Network with the planned MTU.
func TestInstallExamples(t *testing.T) {
	for ex, want := range map[string]float64{"remote-workers": 1300, "disconnected-quay-cache": 1400, "fleet": 1400} {
		for _, o := range renderAll(t, filepath.Join("../../examples", ex), true) {
			m := decode(t, o, day0NetworkManifest)
			if v, _ := lookup(m, "spec", "defaultNetwork", "ovnKubernetesConfig", "mtu"); v != want {
				t.Errorf("%s: mtu = %v, want %v", o.Site.Name, v, want)
			}
			if v, _ := lookup(m, "kind"); v != "Network" {
				t.Errorf("%s: kind %v", o.Site.Name, v)
			}
		}
	}
}

// TestFidelity runs every object this generator emits (MachineConfigs, the
// operator Network, resources and files alike) through fidelity.Check, and
// every patch applied to the object it patches.
func TestFidelity(t *testing.T) {
	var outs []*generators.Output
	for _, ex := range []string{"aws-local-zones", "remote-workers", "disconnected-quay-cache", "fleet"} {
		outs = append(outs, renderAll(t, filepath.Join("../../examples", ex), true)...)
	}
	fixtures, _ := filepath.Glob("testdata/*/site.yaml")
	for _, f := range fixtures {
		outs = append(outs, renderAll(t, f, false)...)
	}
	objects, patches := 0, 0
	for _, o := range outs {
		for _, name := range o.Day0Names() {
			if err := fidelity.Check(o.Day0[name].Data); err != nil {
				t.Errorf("%s/day-0 %s: %v", o.Site.Name, name, err)
			}
			objects++
		}
		for _, p := range o.Paths() {
			b := o.Files[p]
			switch {
			case p == generators.KustomizationFile || strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".bu") || strings.HasSuffix(p, ".kustomize-patch.yaml"):
				if strings.HasSuffix(p, ".kustomize-patch.yaml") {
					if err := fidelity.Check(b); err != nil {
						t.Errorf("%s/%s: %v", o.Site.Name, p, err)
					}
				}
			case strings.HasSuffix(p, ".patch.yaml"), strings.HasSuffix(p, ".json"):
				yamlPath := strings.TrimSuffix(strings.TrimSuffix(p, ".json"), ".patch.yaml") + ".patch.yaml"
				target := patchTarget(t, o.Files[yamlPath])
				var patch map[string]any
				if err := yaml.Unmarshal(b, &patch); err != nil {
					t.Fatalf("%s/%s: %v", o.Site.Name, p, err)
				}
				patched := mergePatch(baseObject(t, target), patch)
				doc, _ := json.Marshal(patched)
				if err := fidelity.Check(doc); err != nil {
					t.Errorf("%s/%s applied to %s: %v", o.Site.Name, p, target, err)
				}
				patches++
			default:
				if err := fidelity.Check(b); err != nil {
					t.Errorf("%s/%s: %v", o.Site.Name, p, err)
				}
				objects++
			}
		}
	}
	t.Logf("checked %d objects and %d patches", objects, patches)
	if objects < 10 || patches < 10 {
		t.Errorf("checked only %d objects and %d patches", objects, patches)
	}
}

var reOCPatch = regexp.MustCompile(`oc patch (\S+) cluster`)

// patchTarget reads the resource a patch is for from its `oc patch` line.
func patchTarget(t *testing.T, patchYAML []byte) string {
	m := reOCPatch.FindSubmatch(patchYAML)
	if m == nil {
		t.Fatalf("patch without an oc patch line:\n%s", patchYAML)
	}
	return string(m[1])
}

// baseObject is the object a patch is applied to: the cluster singleton as
// CNO leaves it on a 1500-byte OpenShift SDN cluster (the MTU patches only
// touch fields that exist for both network types).
func baseObject(t *testing.T, resource string) map[string]any {
	var doc string
	switch resource {
	case platform.OperatorNetworkResource:
		doc = `
apiVersion: operator.openshift.io/v1
kind: Network
metadata: {name: cluster}
spec:
  managementState: Managed
  clusterNetwork: [{cidr: 10.128.0.0/14, hostPrefix: 23}]
  serviceNetwork: [172.30.0.0/16]
  defaultNetwork:
    type: OpenShiftSDN
    openshiftSDNConfig: {mode: NetworkPolicy, mtu: 1450, vxlanPort: 4789}
`
	case platform.ConfigNetworkResource:
		doc = `
apiVersion: config.openshift.io/v1
kind: Network
metadata: {name: cluster}
spec:
  clusterNetwork: [{cidr: 10.128.0.0/14, hostPrefix: 23}]
  serviceNetwork: [172.30.0.0/16]
  networkType: OpenShiftSDN
`
	default:
		t.Fatalf("no base object for %s", resource)
	}
	var m map[string]any
	if err := yaml.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// mergePatch applies a JSON merge patch (RFC 7386), as `oc patch --type=merge`.
func mergePatch(target, patch map[string]any) map[string]any {
	if target == nil {
		target = map[string]any{}
	}
	for k, v := range patch {
		switch v := v.(type) {
		case nil:
			delete(target, k)
		case map[string]any:
			sub, _ := target[k].(map[string]any)
			target[k] = mergePatch(sub, v)
		default:
			target[k] = v
		}
	}
	return target
}

// TestMTUMigrationSequence applies the example's phases in order to the
// running cluster's operator Network, as the runbook does.
func TestMTUMigrationSequence(t *testing.T) {
	o := renderAll(t, "../../examples/aws-local-zones", true)[0]
	var net map[string]any
	_ = yaml.Unmarshal([]byte(`
apiVersion: operator.openshift.io/v1
kind: Network
metadata: {name: cluster}
spec:
  managementState: Managed
  clusterNetwork: [{cidr: 10.128.0.0/14, hostPrefix: 23}]
  serviceNetwork: [172.30.0.0/16]
  defaultNetwork:
    type: OVNKubernetes
    ovnKubernetesConfig: {mtu: 8901, genevePort: 6081}
`), &net)
	net = mergePatch(net, decode(t, o, mtuPhase1PatchJSON))
	doc, _ := json.Marshal(net)
	if err := fidelity.Check(doc); err != nil {
		t.Fatalf("after phase 1: %v", err)
	}
	net = mergePatch(net, decode(t, o, mtuPhase2PatchJSON))
	if _, ok := lookup(net, "spec", "migration"); ok {
		t.Error("spec.migration is still there after phase 2")
	}
	if v, _ := lookup(net, "spec", "defaultNetwork", "ovnKubernetesConfig", "mtu"); v != float64(1200) {
		t.Errorf("mtu after phase 2 = %v", v)
	}
	if v, _ := lookup(net, "spec", "defaultNetwork", "ovnKubernetesConfig", "genevePort"); v != float64(6081) {
		t.Errorf("phase 2 lost genevePort: %v", v)
	}
	doc, _ = json.Marshal(net)
	if err := fidelity.Check(doc); err != nil {
		t.Fatalf("after phase 2: %v", err)
	}
}

// TestKustomizePatchForm runs the real kustomize (KUSTOMIZE, set by make
// test) over a kustomization holding the running cluster's operator Network
// and the two kustomize patches, and compares the result with the merge
// patches applied by hand.
func TestKustomizePatchForm(t *testing.T) {
	kustomize := os.Getenv("KUSTOMIZE")
	if kustomize == "" {
		t.Skip("KUSTOMIZE is not set: run through `make test`, which installs the pinned kustomize")
	}
	o := renderAll(t, "../../examples/aws-local-zones", true)[0]
	base := `apiVersion: operator.openshift.io/v1
kind: Network
metadata:
  name: cluster
spec:
  defaultNetwork:
    ovnKubernetesConfig:
      genevePort: 6081
      mtu: 8901
    type: OVNKubernetes
  managementState: Managed
`
	for _, tc := range []struct {
		patches []string
		want    []string // merge patch JSON files applied to base
	}{
		{[]string{mtuPhase1Kustomize}, []string{mtuPhase1PatchJSON}},
		{[]string{mtuPhase1Kustomize, mtuPhase2Kustomize}, []string{mtuPhase1PatchJSON, mtuPhase2PatchJSON}},
	} {
		dir := t.TempDir()
		k := "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- network.yaml\npatches:\n"
		for _, p := range tc.patches {
			name := filepath.Base(p)
			if err := os.WriteFile(filepath.Join(dir, name), o.Files[p], 0o644); err != nil {
				t.Fatal(err)
			}
			k += "- path: " + name + "\n  target: {group: operator.openshift.io, version: v1, kind: Network, name: cluster}\n"
		}
		_ = os.WriteFile(filepath.Join(dir, "network.yaml"), []byte(base), 0o644)
		_ = os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(k), 0o644)
		out, err := exec.Command(kustomize, "build", dir).CombinedOutput()
		if err != nil {
			t.Fatalf("kustomize build: %v\n%s", err, out)
		}
		var got, want map[string]any
		if err := yaml.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		_ = yaml.Unmarshal([]byte(base), &want)
		for _, p := range tc.want {
			want = mergePatch(want, decode(t, o, p))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("kustomize %v gives\n%s\nwant the merge patches' result %v", tc.patches, out, want)
		}
	}
}
