package registries

import (
	"reflect"
	"testing"
)

func TestMirrorGraphSorted(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edges [][2]string
		want  []string
	}{
		{"chain", [][2]string{{"c", "b"}, {"b", "a"}}, []string{"c", "b", "a"}},
		{"roots sorted", [][2]string{{"b", "x"}, {"a", "x"}}, []string{"a", "b", "x"}},
		{"fifo batches", [][2]string{{"a", "z"}, {"b", "c"}}, []string{"a", "b", "z", "c"}},
		{"freed batch sorted", [][2]string{{"a", "y"}, {"a", "x"}}, []string{"a", "x", "y"}},
		{"two-cycle", [][2]string{{"b", "a"}, {"a", "b"}}, []string{"a", "b"}},
		{"cycle behind a root", [][2]string{{"r", "c"}, {"c", "b"}, {"b", "c"}}, []string{"r", "b", "c"}},
		{"self-loop", [][2]string{{"a", "a"}, {"a", "b"}}, []string{"a", "b"}},
		{"duplicate edges", [][2]string{{"a", "b"}, {"a", "b"}}, []string{"a", "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newMirrorGraph()
			for _, e := range tc.edges {
				g.addEdge(e[0], e[1])
			}
			if got := g.sorted(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("sorted() = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestScopeIsNested(t *testing.T) {
	for _, tc := range []struct {
		sub, super string
		want       bool
	}{
		{"quay.io", "quay.io", true},
		{"quay.io/ns/repo", "quay.io", true},
		{"quay.io:443", "quay.io", false},
		{"quay.io2", "quay.io", false},
		{"quay.io.example.com", "quay.io", false},
		{"foo.example.com", "*.example.com", true},
		{"*.foo.example.com", "*.example.com", true},
		{"foo.example.com:5000/ns", "*.example.com", true},
		{"example.com", "*.example.com", false},
		{"bar/example.foo", "*.foo", false},
		{"example/bar.foo:400", "*.foo", false},
	} {
		if got := scopeIsNested(tc.sub, tc.super); got != tc.want {
			t.Errorf("scopeIsNested(%q, %q) = %v, want %v", tc.sub, tc.super, got, tc.want)
		}
	}
}

func TestIsValidScope(t *testing.T) {
	for scope, want := range map[string]bool{
		"example.com": true, "example.com:5000/ns": true, "*.example.com": true,
		"": false, "**.example.com": false, "example.*.com": false, "*.example.com/ns": false,
		"*.example.com:5000": false, "*example.com": false, "*.*example.com": false,
	} {
		if got := isValidScope(scope); got != want {
			t.Errorf("isValidScope(%q) = %v, want %v", scope, got, want)
		}
	}
}
