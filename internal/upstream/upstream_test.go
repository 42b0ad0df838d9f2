package upstream

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// structTags is a struct type found in the module: where, and its json
// names, sorted.
type structTags struct {
	pos   string
	name  string // "" for an anonymous struct
	names []string
}

// moduleStructs lists the struct types (named and anonymous) of the
// module's non-test Go files under root, except testdata.
func moduleStructs(t *testing.T, root string) []structTags {
	t.Helper()
	var out []structTags
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		named := map[*ast.StructType]string{}
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				if st, ok := ts.Type.(*ast.StructType); ok {
					named[st] = ts.Name.Name
				}
			}
			st, ok := n.(*ast.StructType)
			if !ok {
				return true
			}
			var names []string
			for _, fld := range st.Fields.List {
				if fld.Tag == nil {
					continue
				}
				tag, _ := strconv.Unquote(fld.Tag.Value)
				name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
				if name != "" && name != "-" {
					names = append(names, name)
				}
			}
			slices.Sort(names)
			rel, _ := filepath.Rel(root, fset.Position(st.Pos()).Filename)
			out = append(out, structTags{pos: filepath.ToSlash(rel) + ":" + strconv.Itoa(fset.Position(st.Pos()).Line), name: named[st], names: names})
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestOneTypePerObject: this package is the one typed home of each upstream
// object it defines (docs/architecture.md, "Where things go"). Outside it, no
// type is named after its top-level objects, and no struct repeats the json
// fields of one of its structs of three fields or more: that would be a
// second definition of the upstream type, written or read apart from this
// one.
func TestOneTypePerObject(t *testing.T) {
	all := moduleStructs(t, filepath.Join("..", ".."))
	var ours, others []structTags
	for _, s := range all {
		if strings.HasPrefix(s.pos, "internal/upstream/") {
			ours = append(ours, s)
		} else {
			others = append(others, s)
		}
	}
	top := []string{"ClusterInstance", "ClusterInstanceSpec", "InstallConfig", "AgentConfig",
		"Policy", "ConfigurationPolicy", "PlacementBinding", "ManagedClusterSetBinding", "PolicyGenerator", "CatalogSource"}
	for _, name := range top {
		if !slices.ContainsFunc(ours, func(s structTags) bool { return s.name == name }) {
			t.Errorf("internal/upstream does not define %s", name)
		}
	}
	for _, o := range others {
		if slices.Contains(top, o.name) {
			t.Errorf("%s: type %s is defined again: use internal/upstream's", o.pos, o.name)
		}
		for _, u := range ours {
			if len(u.names) >= 3 && slices.Equal(o.names, u.names) {
				t.Errorf("%s: struct %s has the json fields of upstream.%s (%s): use internal/upstream's", o.pos, o.name, u.name, strings.Join(u.names, ", "))
			}
		}
	}
}
