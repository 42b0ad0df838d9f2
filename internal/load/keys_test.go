package load

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
)

// oddLabels are labels spelled in every way a path string spells them:
// identifiers, labels quoted for a dot, a dash, a space, a quote, a
// backslash, a newline, non-ASCII letters, a leading digit, # or _, the
// empty label.
var oddLabels = []string{"a", "uplinkMTU", "registry.redhat.io", "a-b", "with space", `a"b`, `a\b`, "a\nb", "é", "日本", "1abc", "#x", "_x", "__x", "x?", "x!", ""}

// TestPathKeysMatchMakePath: the path strings the walks build one label at
// a time are cue.MakePath(selectors...).String()'s, byte for byte.
func TestPathKeysMatchMakePath(t *testing.T) {
	var sels []cue.Selector
	for _, l := range oddLabels {
		sels = append(sels, cue.Str(l), cue.Str(l).Optional(), cue.Str(l).Required())
	}
	sels = append(sels, cue.Index(0), cue.Index(7), cue.Index(10), cue.Index(123), cue.Index(100000))
	var check func(path []cue.Selector, key string)
	check = func(path []cue.Selector, key string) {
		if want := cue.MakePath(path...).String(); key != want {
			t.Errorf("%q: built %q, want %q", want, key, want)
		}
		if len(path) == 3 {
			return
		}
		for _, s := range sels {
			k := fieldKey(key, len(path) == 0, s)
			if s.LabelType() == cue.IndexLabel {
				k = indexKey(key, s.Index())
			}
			check(append(path[:len(path):len(path)], s), k)
		}
	}
	check(nil, "")
}

// oddSite is a CUE site with labels of every spelling, fields written
// optional or required, nested lists and attributes: where the walks meet
// what the schema knows and what it does not.
const oddSite = `package site

apiVersion: "siteforge.dev/v1alpha1"
kind:       "Site"
name:       "odd" @lint(ignore="X001", reason="a reason")
cluster: {
	baseDomain: "example.com"
	region?:    "us-east-1"
	version!:   "4.16"
}
pools: {
	"edge-1"?: {uplinkMTU: 1500, labels: {"app.kubernetes.io/name": "x", "example.com/role": "y", "é": "z"}}
	master: nodes: [{name: "m0", ip: "10.0.0.1", networkConfig: {"a.b": [[1, 2], [{c: 3}]], "x y": {"": 1}}},
		{name: "m1", ip: "10.0.0.2", bmc: {adress: "x", credentialsSecret: "s"}, bootMAC: "52:54:00:00:00:01", rootDeviceHints: {deviceName: "/dev/sda"}}]
}
mirroring: sources: "registry.redhat.io": mirrors: ["a.example.com/b"]
"not allowed": {"b.c": [1, {d: 2}]}
"#x": 1
_hidden: 2
#Def: 3
`

// refVisit is one call a walk makes: the value's path string (as the walks
// spelled it before they built it a label at a time:
// cue.MakePath(path...).String()), whether it is the top, and the value.
type refVisit struct {
	key  string
	root bool
	pos  string
}

// refWalk walks v as walkUser does, spelling paths with cue.MakePath.
func refWalk(v cue.Value) []refVisit {
	var out []refVisit
	var walk func(v cue.Value, path []cue.Selector)
	walk = func(v cue.Value, path []cue.Selector) {
		out = append(out, refVisit{cue.MakePath(path...).String(), len(path) == 0, v.Pos().String()})
		switch v.IncompleteKind() {
		case cue.StructKind:
			it, err := v.Fields(cue.Optional(true))
			if err != nil {
				return
			}
			for it.Next() {
				walk(it.Value(), append(path[:len(path):len(path)], it.Selector()))
			}
		case cue.ListKind:
			it, err := v.List()
			if err != nil {
				return
			}
			for i := 0; it.Next(); i++ {
				walk(it.Value(), append(path[:len(path):len(path)], cue.Index(i)))
			}
		}
	}
	walk(v, nil)
	return out
}

// TestWalkKeysMatchMakePath: walkUser and the unknown-field walk give
// every value the path string cue.MakePath gives its selectors, over the
// examples, the CLI's verdict sites, synthetic fleets and a site of odd
// labels.
func TestWalkKeysMatchMakePath(t *testing.T) {
	inputs := decodeInputs(t)
	odd := filepath.Join(t.TempDir(), "odd.cue")
	if err := os.WriteFile(odd, []byte(oddSite), 0o644); err != nil {
		t.Fatal(err)
	}
	units, _ := Discover(append(inputs, odd))
	l := newLoader(t)
	checked, oddChecked := 0, false
	for _, u := range units {
		var files []*ast.File
		bad := false
		for _, name := range u.files {
			f, d := parseFile(name, extOf(name), map[string][]byte{}, ReadInput)
			if len(d) > 0 {
				bad = true
				break
			}
			files = append(files, f)
		}
		if bad {
			continue
		}
		user, d := l.build(u, files)
		if len(d) > 0 {
			continue
		}
		want := refWalk(user)
		var got []refVisit
		walkUser(user, func(v cue.Value, key string, root bool) {
			got = append(got, refVisit{key, root, v.Pos().String()})
		})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: walkUser visits\n%+v\nwant\n%+v", u.source, got, want)
		}
		// The unknown-field walk visits the same values but those under
		// an unknown field.
		byKey := map[refVisit]bool{}
		for _, v := range want {
			byKey[v] = true
		}
		n := 0
		visited := map[string]bool{}
		unknown, _ := l.unknownFields(user, func(v cue.Value, key string, root bool) {
			n++
			visited[key] = true
			if r := (refVisit{key, root, v.Pos().String()}); !byKey[r] {
				t.Errorf("%s: the unknown-field walk visits %+v, not a value of the user's", u.source, r)
			}
		})
		if len(unknown) == 0 && n != len(want) {
			t.Errorf("%s: the unknown-field walk visits %d values, want %d", u.source, n, len(want))
		}
		if u.source == odd {
			oddChecked = true
			pos, sups := userFields(user)
			for _, k := range []string{`cluster.region?`, `cluster.version!`, `pools."edge-1"?.labels."app.kubernetes.io/name"`, `pools."edge-1"?.labels."example.com/role"`,
				`pools.master.nodes[0].networkConfig."a.b"[1][0].c`, `pools.master.nodes[0].networkConfig."x y".""`, `mirroring.sources."registry.redhat.io".mirrors[0]`, `"not allowed"."b.c"[1].d`, `"#x"`} {
				if _, ok := pos[k]; !ok {
					t.Errorf("odd site: no position for %s", k)
				}
				if !visited[k] && k[0] != '"' {
					t.Errorf("odd site: the unknown-field walk does not visit %s", k)
				}
			}
			if len(sups) != 1 || sups[0].Path != "name" || sups[0].Rule != "X001" {
				t.Errorf("odd site: suppressions %+v", sups)
			}
			var paths []string
			for _, f := range unknown {
				paths = append(paths, f.path.String())
			}
			if want := []string{`pools."edge-1".labels.é`, `pools.master.nodes[1].bmc.adress`, `"not allowed"`, `"#x"`}; !reflect.DeepEqual(paths, want) {
				t.Errorf("odd site: unknown fields %q, want %q", paths, want)
			}
		}
		checked++
	}
	if checked < 100 || !oddChecked {
		t.Errorf("checked %d sites (the odd one: %v)", checked, oddChecked)
	}
}
