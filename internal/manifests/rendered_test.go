package manifests

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"
)

// TestReadRenderedDecodesAsReadBytes: objects read by ReadRendered decode
// into every target as ReadBytes's objects do, also where sigs.k8s.io/yaml
// converts a number or a bool for a string field, and maps whose JSON could
// differ from their YAML's are read by ReadBytes.
func TestReadRenderedDecodesAsReadBytes(t *testing.T) {
	type cm struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Metadata   map[string]any    `json:"metadata"`
		Data       map[string]string `json:"data"`
	}
	type typed struct {
		Data struct {
			N int     `json:"n"`
			F float64 `json:"f"`
			T string  `json:"t"`
		} `json:"data"`
	}
	targets := []func() any{
		func() any { return &map[string]any{} },
		func() any { return &cm{} },
		func() any { return &typed{} },
		func() any { return &struct{ Data []string }{} },
	}
	meta := func() map[string]any {
		return map[string]any{"name": "x", "annotations": map[string]any{"a": "b"}}
	}
	for i, tc := range []struct {
		obj  map[string]any
		fast bool
	}{
		{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(), "data": map[string]any{"n": 1, "t": true, "f": 1.5, "s": "x"}}, true},
		{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(), "data": map[string]any{"n": int64(math.MaxInt64), "u": uint64(math.MaxUint64), "f": 1e21, "g": 0.000001, "z": nil}}, true},
		{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(), "data": map[string]any{"l": []any{1, "a", false}}}, true},
		{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(), "data": map[string]any{"n": json.Number("1.0")}}, false},
		{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(), "data": map[string]any{"f": math.Copysign(0, -1)}}, false},
	} {
		data, err := sigsyaml.Marshal(tc.obj)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("case%d.yaml", i)
		fast, d := ReadRendered(name, data, tc.obj)
		slow, d2 := ReadBytes(name, data)
		if len(d) > 0 || len(d2) > 0 || len(fast) != 1 || len(slow) != 1 {
			t.Fatalf("case %d: %v %v, %d and %d objects", i, d, d2, len(fast), len(slow))
		}
		if (fast[0].own != nil) != tc.fast {
			t.Errorf("case %d: read from the map %v, want %v", i, fast[0].own != nil, tc.fast)
		}
		for _, strict := range []bool{true, false} {
			for _, target := range targets {
				a, b := target(), target()
				var ea, eb error
				if strict {
					ea, eb = fast[0].Decode(a), slow[0].Decode(b)
				} else {
					ea, eb = fast[0].DecodeLoose(a), slow[0].DecodeLoose(b)
				}
				if fmt.Sprint(ea) != fmt.Sprint(eb) || !reflect.DeepEqual(a, b) {
					t.Errorf("case %d into %T (strict %v): %+v, %v; ReadBytes: %+v, %v", i, a, strict, a, ea, b, eb)
				}
			}
		}
	}
}
