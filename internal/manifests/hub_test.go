package manifests

import (
	"os"
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/pkg/labels"
	sigsyaml "sigs.k8s.io/yaml"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func scanFile(t *testing.T, p string) []*Object {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	objs, probs := Scan(p, data)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	return objs
}

// asJSON is an object's content as JSON, for comparison.
func asJSON(t *testing.T, o *Object) string {
	t.Helper()
	b, err := sigsyaml.YAMLToJSON(o.Raw)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPolicyGenTemplateOverlay: a source CR with the PolicyGenTemplate's
// overlays merged as the ZTP policy generator does (policyBuilder.go
// getCustomResource, setValues): $mcp replaced, metadata name replaced and
// labels merged, a list of mappings merged item by item, a $ or empty
// placeholder the overlay leaves unset deleted (at the top of spec), the
// overlay's new keys added; what the overlay sets is at its line in the
// PolicyGenTemplate.
func TestPolicyGenTemplateOverlay(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"pgt.yaml": `apiVersion: ran.openshift.io/v1
kind: PolicyGenTemplate
metadata:
  name: group
  namespace: ztp-group
spec:
  mcp: master
  bindingRules:
    group: ""
  sourceFiles:
  - fileName: Thing.yaml
    policyName: config
    metadata:
      name: renamed
      labels:
        extra: "yes"
    spec:
      items:
      - size: 2
      - size: 3
        name: second
      added: true
`,
		"source-crs/Thing.yaml": `apiVersion: example.com/v1
kind: Thing
metadata:
  name: $name
  labels:
    role: $mcp
spec:
  unset: $value
  empty: ""
  kept: x
  items:
  - size: 1
    name: first
`,
	})
	g := GeneratorDeliveries(scanFile(t, filepath.Join(dir, "pgt.yaml")), nil)
	if len(g.Problems) > 0 || len(g.Deliveries) != 1 || len(g.Deliveries[0].Objects) != 1 {
		t.Fatalf("problems %v, deliveries %+v", g.Problems, g.Deliveries)
	}
	d := g.Deliveries[0]
	if d.Policy != "ztp-group/group-config" || d.Selector == nil || d.Hub {
		t.Errorf("delivery %+v", d)
	}
	o := d.Objects[0]
	want := `{"apiVersion":"example.com/v1","kind":"Thing","metadata":{"labels":{"extra":"yes","role":"master"},"name":"renamed"},"spec":{"added":true,"items":[{"name":"first","size":2},{"name":"second","size":3}],"kept":"x"}}`
	if got := asJSON(t, o); got != want {
		t.Errorf("merged:\n got %s\nwant %s", got, want)
	}
	if o.Name != "renamed" {
		t.Errorf("name %q", o.Name)
	}
	for _, c := range []struct {
		path []string
		file string
		line int
	}{
		{[]string{"spec", "kept"}, "Thing.yaml", 10},
		{[]string{"spec", "items", "0", "name"}, "Thing.yaml", 13},
		{[]string{"spec", "items", "0", "size"}, "pgt.yaml", 19},
		{[]string{"spec", "items", "1", "name"}, "pgt.yaml", 21},
		{[]string{"spec", "added"}, "pgt.yaml", 22},
		{[]string{"metadata", "name"}, "pgt.yaml", 14},
	} {
		if p := o.PosOf(c.path...); filepath.Base(p.File) != c.file || p.Line != c.line {
			t.Errorf("%v at %s, want %s:%d", c.path, p, c.file, c.line)
		}
	}
}

// TestPolicyGeneratorPatches: a PolicyGenerator's patches merge into the
// manifest (mappings merged, null deletes, lists replaced), relative to
// the kustomization's folder; a manifest of object-templates-raw alone is
// read; a manifest path that is not there is
// ProblemSourceMissing at the path; a mustnothave manifest is not read.
func TestPolicyGeneratorPatches(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"gen/pg.yaml": `apiVersion: policy.open-cluster-management.io/v1
kind: PolicyGenerator
metadata:
  name: pg
policyDefaults:
  namespace: ns
  placement:
    labelSelector:
      matchExpressions:
      - key: group
        operator: Exists
policies:
- name: one
  manifests:
  - path: crs/thing.yaml
    patches:
    - spec:
        drop: null
        list: [c]
        nested:
          b: 2
  - path: crs/missing.yaml
  - path: crs/raw.yaml
  - path: crs/absent.yaml
    complianceType: mustnothave
`,
		"crs/raw.yaml":   "object-templates-raw: |\n  - complianceType: musthave\n    objectDefinition:\n      apiVersion: v1\n      kind: ConfigMap\n      metadata:\n        name: raw\n",
		"crs/thing.yaml": "apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: t\nspec:\n  drop: x\n  list: [a, b]\n  nested:\n    a: 1\n",
	})
	gen := scanFile(t, filepath.Join(dir, "gen", "pg.yaml"))
	g := GeneratorDeliveries(gen, func(*Object) string { return dir })
	if len(g.Problems) != 1 || g.Problems[0].Kind != ProblemSourceMissing || g.Problems[0].Pos.Line != 22 || g.Problems[0].Pos.Col != 11 {
		t.Fatalf("problems %v", g.Problems)
	}
	if len(g.Deliveries) != 1 || len(g.Deliveries[0].Objects) != 2 || len(g.Deliveries[0].Selector) != 1 {
		t.Fatalf("deliveries %+v", g.Deliveries)
	}
	// a manifest of object-templates-raw alone: its objects, at their lines
	if raw := g.Deliveries[0].Objects[1]; raw.Name != "raw" || raw.PosOf("metadata", "name").Line != 7 || filepath.Base(raw.File) != "raw.yaml" {
		t.Errorf("raw object %s at %s", raw.ID(), raw.PosOf("metadata", "name"))
	}
	o := g.Deliveries[0].Objects[0]
	want := `{"apiVersion":"example.com/v1","kind":"Thing","metadata":{"name":"t"},"spec":{"list":["c"],"nested":{"a":1,"b":2}}}`
	if got := asJSON(t, o); got != want {
		t.Errorf("patched:\n got %s\nwant %s", got, want)
	}
	if p := o.PosOf("spec", "nested", "b"); filepath.Base(p.File) != "pg.yaml" || p.Line != 21 {
		t.Errorf("patched value at %s, want pg.yaml:21", p)
	}
	if p := o.PosOf("spec", "nested", "a"); filepath.Base(p.File) != "thing.yaml" || p.Line != 9 {
		t.Errorf("source value at %s, want thing.yaml:9", p)
	}
	if !g.Sources[filepath.Join(dir, "crs", "thing.yaml")] || !g.SourceDirs[filepath.Join(dir, "crs")] {
		t.Errorf("sources %v, dirs %v", g.Sources, g.SourceDirs)
	}
}

// TestPolicyRawTemplates: object-templates-raw in a literal block is read
// at its lines in the file; with a template in it, it is a problem.
func TestPolicyRawTemplates(t *testing.T) {
	dir := t.TempDir()
	policy := `apiVersion: policy.open-cluster-management.io/v1
kind: Policy
metadata:
  name: p
  namespace: ns
spec:
  policy-templates:
  - objectDefinition:
      apiVersion: policy.open-cluster-management.io/v1
      kind: ConfigurationPolicy
      metadata:
        name: p
      spec:
        object-templates-raw: |
          - complianceType: musthave
            objectDefinition:
              apiVersion: v1
              kind: ConfigMap
              metadata:
                name: cm
`
	writeFiles(t, dir, map[string]string{"p.yaml": policy, "t.yaml": policy + "                namespace: '{{ fromSecret \"a\" \"b\" \"c\" }}'\n"})
	ds, probs := PolicyDeliveries(scanFile(t, filepath.Join(dir, "p.yaml")))
	if len(probs) > 0 || len(ds) != 1 || len(ds[0].Objects) != 1 || ds[0].Selector != nil {
		t.Fatalf("problems %v, deliveries %+v", probs, ds)
	}
	if p := ds[0].Objects[0].PosOf("metadata", "name"); p.Line != 20 || p.Col != 23 {
		t.Errorf("name at %s, want 20:23", p)
	}
	ds, probs = PolicyDeliveries(scanFile(t, filepath.Join(dir, "t.yaml")))
	if len(probs) != 1 || probs[0].Kind != ProblemTemplate || probs[0].Pos.Line != 14 || len(ds[0].Objects) != 0 {
		t.Fatalf("problems %v, deliveries %+v", probs, ds)
	}
}

// TestPolicyGeneratorPlacements: a PolicyGenerator policy is placed by its
// labelSelector, by the Placement it names in its namespace
// (placementName) or by the PlacementRule in a file (placementRulePath);
// without a placement the repository knows, it is placed on no known
// cluster.
func TestPolicyGeneratorPlacements(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"pg.yaml": `apiVersion: policy.open-cluster-management.io/v1
kind: PolicyGenerator
metadata:
  name: pg
policyDefaults:
  namespace: ns
policies:
- name: by-labels
  placement:
    labelSelector:
      group: du
  manifests: []
- name: by-name
  placement:
    placementName: sites-a
  manifests: []
- name: by-file
  placement:
    placementRulePath: placement/rule.yaml
  manifests: []
- name: by-unknown
  placement:
    placementName: elsewhere
  manifests: []
---
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata:
  name: sites-a
  namespace: ns
spec:
  predicates:
  - requiredClusterSelector:
      labelSelector:
        matchLabels:
          sites: a
`,
		"placement/rule.yaml": "apiVersion: apps.open-cluster-management.io/v1\nkind: PlacementRule\nmetadata:\n  name: r\n  namespace: ns\nspec:\n  clusterSelector:\n    matchExpressions:\n    - key: common\n      operator: In\n      values: [\"true\"]\n",
	})
	g := GeneratorDeliveries(scanFile(t, filepath.Join(dir, "pg.yaml")), nil)
	if len(g.Deliveries) != 4 {
		t.Fatalf("deliveries %+v", g.Deliveries)
	}
	cluster := labels.Set{"group": "du", "sites": "a", "common": "true"}
	other := labels.Set{"group": "cu", "sites": "b"}
	for i, want := range []bool{true, true, true, false} {
		d := g.Deliveries[i]
		if d.Selects(cluster) != want || d.Selects(other) {
			t.Errorf("%s: selects %v %v, want %v false", d.Policy, d.Selects(cluster), d.Selects(other), want)
		}
	}
}
