package generators

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	yaml2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"
)

// decodeJSON is what ToMap gives for a JSON document.
func decodeJSON(t testing.TB, doc string) (map[string]any, bool) {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil || m == nil {
		return nil, false
	}
	return m, true
}

// sameAsRoundTrip checks marshalYAML against sigs.k8s.io/yaml.Marshal, the
// JSON round trip it replaces: the same bytes, or both fail.
func sameAsRoundTrip(t *testing.T, doc string) {
	t.Helper()
	want, wantErr := func() ([]byte, error) {
		m, _ := decodeJSON(t, doc)
		return yaml.Marshal(m)
	}()
	m, _ := decodeJSON(t, doc)
	got, err := marshalYAML(m)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%s: error %v, the round trip's %v", doc, err, wantErr)
	}
	if bytes.Equal(got, want) {
		return
	}
	// yaml.v2 sorts keys with an order that is not one for some sets of
	// keys with leading zeros ("0010", "8", "0A"): the result then depends
	// on Go's map order, so the round trip itself gives several outputs.
	// Then ours must differ from it only in that order.
	varies := false
	for i := 0; i < 50 && !varies; i++ {
		m, _ := decodeJSON(t, doc)
		again, _ := yaml.Marshal(m)
		varies = !bytes.Equal(again, want)
	}
	var a, b any
	if varies && yaml2.Unmarshal(got, &a) == nil && yaml2.Unmarshal(want, &b) == nil && reflect.DeepEqual(a, b) {
		return
	}
	t.Fatalf("%s:\n got %q\nwant %q", doc, got, want)
}

// yamlCases are values whose YAML depends on how they are typed or quoted.
var yamlCases = []string{
	`{"a":1,"b":-1,"c":0,"d":-0,"e":1.5,"f":1e3,"g":1E+21,"h":-2.5e-7,"i":1e400,"j":-1e400}`,
	`{"max":9223372036854775807,"over":9223372036854775808,"umax":18446744073709551615,"huge":18446744073709551616,"min":-9223372036854775808,"under":-9223372036854775809}`,
	`{"int":2147483648,"float":100000000000000000000000,"small":0.000001,"tiny":1e-7,"exact":1.0,"zeroes":10.50}`,
	`{"s":["yes","no","on","off","y","n","true","False","null","~","","<<",".inf","-.inf",".nan","1","0x1F","0o17","0b101","1_000","1e3","2006-01-02","2006-01-02T15:04:05Z","12:30:45","0644"]}`,
	`{"s":["a: b","- x","#c","a #b","'q'","\"q\"","{x}","[x]","&a","*a","!t","%p","@x","` + "`x`" + `","|","> x","? k"," lead","trail ","a\nb","a\n","\n","\t","a\tb","\u0000","\u001f","\b","\\"]}`,
	`{"long":"` + strings.Repeat("word ", 40) + `","longnoblank":"` + strings.Repeat("x", 200) + `","lines":"` + strings.Repeat(`line\n`, 5) + `"}`,
	`{"utf8":"café","bom":"\ufeffx","del":"a\u007fb","nel":"a\u0085b","ls":"a\u2028b","html":"<a href=\"x\">&amp;</a>","emoji":"😀","c1":"\u0090","bad":"\udc00"}`,
	`{"é":1,"<<":{"a":1},"k":{"<<":"x"}}`,
	`{"metadata":{"name":"n","annotations":{},"labels":{"a":"","b":"c"}},"spec":{"list":[],"map":{},"null":null,"t":true,"f":false,"nested":[[1,[2,{}]],{"a":[]}]}}`,
	`{"keys":{"10":1,"9":2,"a10":3,"a9":4,"B":5,"a":6,"_":7,"-":8,"1.5":9,"true":10,"":11}}`,
}

func TestMarshalYAMLIsTheRoundTrip(t *testing.T) {
	for _, doc := range yamlCases {
		if _, ok := decodeJSON(t, doc); !ok {
			t.Fatalf("bad case %s", doc)
		}
		sameAsRoundTrip(t, doc)
	}
}

// TestMarshalYAMLFastPath: the cases above are mostly written on the fast
// path (otherwise the test above would compare the round trip to itself).
func TestMarshalYAMLFastPath(t *testing.T) {
	fast := 0
	for _, doc := range yamlCases {
		m, _ := decodeJSON(t, doc)
		if plainJSON(m) {
			fast++
		}
	}
	if fast < len(yamlCases)-2 {
		t.Errorf("%d of %d cases on the fast path", fast, len(yamlCases))
	}
}

func FuzzMarshalYAML(f *testing.F) {
	for _, doc := range yamlCases {
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		if _, ok := decodeJSON(t, doc); !ok {
			return
		}
		sameAsRoundTrip(t, doc)
	})
}

// TestMarshalYAMLTyped: typed values (JSON tags, omitempty, pointers, Go
// numbers, nested lists) give the bytes of sigs.k8s.io/yaml.Marshal.
func TestMarshalYAMLTyped(t *testing.T) {
	type inner struct {
		Name  string   `json:"name"`
		Port  *int64   `json:"port,omitempty"`
		Ratio float64  `json:"ratio,omitempty"`
		Tags  []string `json:"tags"`
	}
	type outer struct {
		APIVersion string            `json:"apiVersion"`
		Items      []inner           `json:"items,omitempty"`
		Labels     map[string]string `json:"labels,omitempty"`
		Count      uint64            `json:"count"`
		Big        int64             `json:"big"`
		Skip       string            `json:"-"`
		Any        any               `json:"any"`
	}
	port := int64(6443)
	values := []any{
		outer{APIVersion: "v1", Items: []inner{{Name: "a", Port: &port, Ratio: 0.25, Tags: []string{"yes", "1"}}, {Name: "08"}},
			Labels: map[string]string{"on": "off", "n": ""}, Count: 18446744073709551615, Big: -9223372036854775808, Skip: "x", Any: map[string]any{"x": 1.5, "y": nil}},
		outer{},
		map[string]any{"a": 1, "b": int64(1) << 62, "c": 1e21, "d": float32(0.1), "e": []any{nil, true, "null"}},
		map[string]any{},
		[]any{1, "a"},
		"plain",
		nil,
		map[string]any{"bad": "caf\xe9"},
	}
	for _, v := range values {
		want, wantErr := yaml.Marshal(v)
		got, err := MarshalYAML(v)
		if (err != nil) != (wantErr != nil) || !bytes.Equal(got, want) {
			t.Errorf("%#v:\n got %q, %v\nwant %q, %v", v, got, err, want, wantErr)
		}
	}
	if _, err := MarshalYAML(map[string]any{"f": func() {}}); err == nil {
		t.Error("a value JSON cannot encode encoded")
	}
}

// roundTrip is ToMap's JSON round trip.
func roundTrip(obj any) (map[string]any, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	err = dec.Decode(&m)
	return m, err
}

// TestToMapCopies: a map that is already what the round trip gives is
// copied, with the same result; anything else takes the round trip.
func TestToMapCopies(t *testing.T) {
	inputs := []any{
		map[string]any{"a": json.Number("1"), "b": []any{"x", nil, true, map[string]any{}}, "c": map[string]any{"d": []any{}}},
		map[string]any{"n": json.Number("-0.5e+3"), "s": "<&>"},
		map[string]any{"nilmap": map[string]any(nil), "nillist": []any(nil)},
		map[string]any{"typed": map[string]string{"a": "b"}, "int": 3, "float": 1.5},
		map[string]any{"utf8": "café", "bad": "\xff"},
		map[string]any{"badnum": json.Number("01")},
		map[string]any(nil),
	}
	for _, in := range inputs {
		want, wantErr := roundTrip(in)
		got, err := ToMap(in)
		if (err != nil) != (wantErr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%#v:\n got %#v, %v\nwant %#v, %v", in, got, err, want, wantErr)
		}
	}
	in := inputs[0].(map[string]any)
	out, _ := ToMap(in)
	out["c"].(map[string]any)["d"] = "changed"
	out["b"].([]any)[0] = "changed"
	if in["c"].(map[string]any)["d"] == "changed" || in["b"].([]any)[0] == "changed" {
		t.Error("ToMap's result shares the input")
	}
}

var numberCases = []string{"0", "-0", "1", "-1", "10", "1.5", "1e5", "1E+5", "1e-5", "-0.0e0", "123456789012345678901234567890",
	"", "-", "01", "-01", "1.", ".5", "1e", "1e+", "+1", " 1", "1 ", "0x1", "1_0", "NaN", "Infinity", "1.5.5", "0.e1", "١"}

func TestValidNumber(t *testing.T) {
	for _, s := range numberCases {
		checkValidNumber(t, s)
	}
}

// checkValidNumber: a number validNumber accepts is one encoding/json
// writes as it is; it refuses the others (encoding/json writes "" as 0).
func checkValidNumber(t *testing.T, s string) {
	b, err := json.Marshal(json.Number(s))
	switch {
	case validNumber(s) && (err != nil || string(b) != s):
		t.Errorf("validNumber(%q) = true, encoding/json writes %q, %v", s, b, err)
	case !validNumber(s) && err == nil && s != "":
		t.Errorf("validNumber(%q) = false, encoding/json writes %q", s, b)
	}
}

func FuzzValidNumber(f *testing.F) {
	for _, s := range numberCases {
		f.Add(s)
	}
	f.Fuzz(checkValidNumber)
}

// TestCommentLine: a header is one YAML comment line unless its source
// name breaks the line (for go.yaml.in/yaml/v3: LF, CR, NEL, LS, PS) or
// holds a character YAML refuses; then Objects reads the file as any file.
func TestCommentLine(t *testing.T) {
	for source, want := range map[string]bool{
		"sites/a.yaml": true, "sites/münchen.yaml": true, "a\tb": true,
		"a\nb": false, "a\rb": false, "a\u0085b": false, "a\u2028b": false, "a\u2029b": false,
		"a\x01b": false, "a\x7fb": false, "a\ufeffb": false, "a\uffffb": false, "a\xffb": false,
	} {
		if got := commentLine(header("#", "gen", source)); got != want {
			t.Errorf("%q: %v, want %v", source, got, want)
		}
	}
}
