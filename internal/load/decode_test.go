package load

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"cuelang.org/go/cue"

	"github.com/siteforge/siteforge/internal/fleetgen"
	"github.com/siteforge/siteforge/internal/site"
)

// decodeInputs are site inputs of every kind: the examples, the sites of
// the CLI's verdict tests, synthetic fleets, and values Decode treats
// specially (a node's networkConfig holds any JSON value).
func decodeInputs(t *testing.T) []string {
	t.Helper()
	var paths []string
	for _, glob := range []string{
		filepath.Join("..", "..", "examples", "*"),
		filepath.Join("..", "..", "cmd", "siteforge", "internal", "cli", "testdata", "verdict", "*"),
	} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	dir := t.TempDir()
	if err := fleetgen.Write(filepath.Join(dir, "fleet"), 8); err != nil {
		t.Fatal(err)
	}
	if err := fleetgen.WriteHub(filepath.Join(dir, "hub"), 4, true); err != nil {
		t.Fatal(err)
	}
	odd := strings.Replace(goodYAML, "    count: 3\n", `    count: 3
    nodes:
      - name: m0
        ip: 192.168.10.10
        networkConfig:
          interfaces:
            - {name: eno1, type: ethernet, state: up, mtu: 9000, ipv4: {enabled: true, address: [{ip: 192.168.10.10, prefix-length: 24}]}}
          float: 1.5
          exp: 1e3
          none: null
          list: [1, "a", true, {b: [2.25]}]
          empty: {}
`, 1)
	if odd == goodYAML {
		t.Fatal("goodYAML changed: no place for the nodes")
	}
	for name, src := range map[string]string{"good.yaml": goodYAML, "good.cue": goodCUE, "odd.yaml": odd} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return append(paths, filepath.Join(dir, "fleet"), filepath.Join(dir, "hub"),
		filepath.Join(dir, "good.yaml"), filepath.Join(dir, "good.cue"), filepath.Join(dir, "odd.yaml"))
}

// TestDecodeValidMatchesDecode: the loader's decode of every site it
// evaluates is cue's Value.Decode's, field for field.
func TestDecodeValidMatchesDecode(t *testing.T) {
	decoded := 0
	testHookDecoded = func(v cue.Value, s *site.Site) {
		decoded++
		checkDecoded(t, v, s)
	}
	defer func() { testHookDecoded = nil }()
	l := newLoader(t)
	inputs := decodeInputs(t)
	for i, p := range inputs {
		res := l.Load([]string{p})
		if i >= len(inputs)-5 && (len(res.Diagnostics) > 0 || len(res.Sites) == 0) {
			t.Errorf("%s: %v", filepath.Base(p), res.Diagnostics)
		}
	}
	if decoded < 100 {
		t.Errorf("only %d sites decoded", decoded)
	}
}

// checkDecoded compares what loadSyntax decoded from v, and what
// decodeValid decodes from it, with Decode's.
func checkDecoded(t *testing.T, v cue.Value, s *site.Site) {
	t.Helper()
	var want site.Site
	if err := v.Decode(&want); err != nil {
		t.Errorf("Decode: %v", err)
		return
	}
	var got site.Site
	if !decodeValid(v, &got) {
		t.Errorf("site %s: decodeValid fell back to Decode", want.Name)
	}
	diffSites(t, "decodeValid", want.Name, got, want)
	diffSites(t, "loadSyntax", want.Name, *s, want)
}

// diffSites reports the fields of got that are not Decode's.
func diffSites(t *testing.T, who, name string, got, want site.Site) {
	t.Helper()
	g, w := reflect.ValueOf(got), reflect.ValueOf(want)
	for i := range g.NumField() {
		if !reflect.DeepEqual(g.Field(i).Interface(), w.Field(i).Interface()) {
			t.Errorf("%s: %s decodes %s as\n%#v\nDecode as\n%#v", name, who, g.Type().Field(i).Name, g.Field(i).Interface(), w.Field(i).Interface())
		}
	}
}

// TestDecodeValidFallsBack: what decodeValid does not decode as Decode
// does, it refuses, and Decode decodes (or reports).
func TestDecodeValidFallsBack(t *testing.T) {
	l := newLoader(t)
	for _, src := range []string{
		`name: 1`,              // Decode's error
		`cluster: name: true`,  // Decode's error
		`pools: a: count: 1.5`, // Decode's error
		`pools: a: count: 10000000000000000000000`, // overflow
		`apiVersion: *"a" | "b"`,                   // a default
		`mtu: null`,                                // clears a pointer
		`pools: null`,                              // clears a map
		`paths: null`,                              // clears a slice
		`pools: a: nodes: []`,                      // an empty list, not nil
		`machineConfigs: {}`,                       // an empty map, not nil
		`lint: suppress: [{rule: "X"}]`,            // a list of structs
	} {
		v := l.ctx.CompileString(src)
		if err := v.Err(); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		var want, got site.Site
		wantErr := v.Decode(&want)
		ok := decodeValid(v, &got)
		switch {
		case wantErr != nil && ok:
			t.Errorf("%s: Decode fails (%v), decodeValid does not", src, wantErr)
		case ok:
			diffSites(t, "decodeValid", src, got, want)
		}
	}
}

// TestDecodePlanMatchesSchema: Decode matches a CUE field to the Go field
// of its name, or, when no Go field has that name, case-insensitively;
// decodeValid looks fields up by their exact name only. The two agree
// when no field the schema allows in a struct decoded into a Go struct is
// named like a Go field but for case: no declared field, and no other
// field the schema would let through (an open struct or a pattern). A
// concrete default in the schema (network.clusterNetwork's list) is a
// literal of the #Site definition, closed as all its structs are: Allows
// says yes to any field of it taken out of its list, but Validate refuses
// one all the same ("field not allowed"); its declared fields are checked.
func TestDecodePlanMatchesSchema(t *testing.T) {
	l := newLoader(t)
	top := l.ctx.CompileString("_")
	checked := 0
	var check func(p *decodePlan, sv cue.Value, path string, literal bool, depth int)
	check = func(p *decodePlan, sv cue.Value, path string, literal bool, depth int) {
		if depth > 30 || !sv.Exists() {
			return
		}
		switch p.kind {
		case planPointer:
			check(p.elem, sv, path, literal, depth+1)
		case planSlice:
			for _, d := range disjuncts(sv) {
				if d.IncompleteKind()&cue.ListKind == 0 {
					continue
				}
				lit := literal || d.Validate(cue.Concrete(true)) == nil
				for _, sel := range []cue.Selector{cue.Index(0), cue.AnyIndex} {
					check(p.elem, d.LookupPath(cue.MakePath(sel)), path+"[]", lit, depth+1)
				}
			}
		case planMap:
			for _, key := range []string{"a", "MTU001", "a.b", "example.com", "app.kubernetes.io/name"} {
				if allows(sv, cue.Str(key)) {
					check(p.elem, schemaField(sv, cue.Str(key), top), path+".*", literal, depth+1)
					break
				}
			}
		case planStruct:
			checked++
			goNames := map[string]bool{}
			for _, f := range p.fields {
				goNames[f.path.String()] = true
			}
			for _, n := range fieldNames(sv) {
				if goNames[cue.MakePath(cue.Str(n)).String()] {
					continue
				}
				for g := range goNames {
					if strings.EqualFold(g, n) {
						t.Errorf("%s: schema field %q decodes into Go field %q only case-insensitively", path, n, g)
					}
				}
			}
			for g := range goNames {
				if literal {
					break
				}
				for _, variant := range []string{strings.ToUpper(g), strings.ToLower(g), strings.ToUpper(g[:1]) + g[1:], strings.ToLower(g[:1]) + g[1:]} {
					if variant != g && allows(sv, cue.Str(variant)) {
						t.Errorf("%s: the schema allows field %q, which Decode would put in Go field %q", path, variant, g)
					}
				}
			}
			for _, f := range p.fields {
				sel := f.path.Selectors()[0]
				check(f.plan, schemaField(sv, sel, top), path+"."+sel.String(), literal, depth+1)
			}
		}
	}
	check(sitePlan(), l.schema, "#Site", false, 0)
	if checked < 30 {
		t.Errorf("only %d structs checked", checked)
	}
}
