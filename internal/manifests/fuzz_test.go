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
	})
}
