package manifests

import (
	"testing"
)

// FuzzReadBytes: the manifest reader never panics; every object it returns
// has a kind and positions inside the file; every problem is positioned.
func FuzzReadBytes(f *testing.F) {
	f.Add([]byte(stream))
	f.Add([]byte("apiVersion: v1\nbaseDomain: x\nplatform: {aws: {}}\ncompute: []\n"))
	f.Add([]byte("a: &a [*a]\n"))
	f.Add([]byte("---\n---\nkind: X\napiVersion: v1\nmetadata: {name: [1]}\n"))
	f.Add([]byte("apiVersion: policy.open-cluster-management.io/v1\nkind: Policy\nmetadata: {name: p, namespace: n}\nspec:\n  policy-templates:\n  - objectDefinition:\n      kind: ConfigurationPolicy\n      spec:\n        object-templates-raw: |\n          - objectDefinition: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}\n        object-templates:\n        - objectDefinition: {apiVersion: v1, kind: ConfigMap, metadata: {name: d}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, diags := ReadBytes("m.yaml", data)
		for _, d := range diags {
			if d.Pos.File != "m.yaml" || d.Pos.Line < 1 || d.Pos.Col < 1 {
				t.Fatalf("diagnostic without a position: %v", d)
			}
		}
		for _, o := range objs {
			if o.Kind == "" || o.APIVersion == "" {
				t.Fatalf("object without kind: %+v", o)
			}
			if p := o.PosOf("spec", "x", "0", "y"); p.Line < 1 {
				t.Fatalf("position %v", p)
			}
			var m map[string]any
			_ = o.DecodeLoose(&m)
			_ = ReadMirrors([]*Object{o}).Input(0, "")
		}
		// the hub readers: every object they deliver and every problem
		// is positioned
		ds, probs := PolicyDeliveries(objs)
		for _, p := range probs {
			if p.Pos.Line < 1 || p.Pos.Col < 1 {
				t.Fatalf("problem without a position: %v", p)
			}
		}
		for _, d := range ds {
			for _, o := range d.Objects {
				if p := o.PosOf("metadata", "name"); p.File != "m.yaml" || p.Line < 1 {
					t.Fatalf("delivered object at %v", p)
				}
			}
		}
		_ = ManagedClusters(objs)
	})
}
