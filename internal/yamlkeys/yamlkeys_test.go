package yamlkeys

import (
	"fmt"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// TestFind: a key set twice in one mapping is found at the second key with
// its path, in document order; the same key in two mappings, and keys
// differing in case, are not duplicates.
func TestFind(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"a: 1\nb: 2\na: 1\n", "a@3:1 first 1 path []"},
		{"x:\n- b: abc\n  a: 32\n  b: 123\n", "b@4:3 first 2 path [x 0]"},
		{"a:\n  a: 1\na:\n  a: 2\n", "a@3:1 first 1 path []"},
		{"'a': 1\n\"a\": 2\n", "a@2:1 first 1 path [] width 3"},
		{"m:\n  k: 1\n  k: 2\nn:\n  j: 1\n  j: 2\n", "k@3:3 first 2 path [m]; j@6:3 first 5 path [n]"},
		{"- cidr: a\n- cidr: b\n", ""},
		{"apiVIPs: [a]\napivips: [b]\n", ""},
	} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(tc.src), &n); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range Find(&n) {
			s := fmt.Sprintf("%s@%d:%d first %d path %v", d.Key.Value, d.Key.Line, d.Key.Column, d.First.Line, d.Path)
			if d.Width() != len(d.Key.Value) {
				s += fmt.Sprintf(" width %d", d.Width())
			}
			got = append(got, s)
		}
		if g := strings.Join(got, "; "); g != tc.want {
			t.Errorf("%q: got %q, want %q", tc.src, g, tc.want)
		}
	}
}
