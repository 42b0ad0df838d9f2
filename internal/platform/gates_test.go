package platform

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestVersionGatesLiveHere walks the repository's non-test Go code outside
// this package for OpenShift version gates written in place: a comparison
// of a minor version with a number, an OCPMinor constant or variable
// declared elsewhere, platform.OCPMinor(<number>), or a "4.N" version
// literal. Each gate belongs here, once, with its source.
func TestVersionGatesLiveHere(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	self, _ := filepath.Abs(".")
	version := regexp.MustCompile(`^"4\.[0-9]+(\.[0-9]+)?"$`)
	minorish := regexp.MustCompile(`(?i)minor|version`)
	checked := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			// internal/archivegen writes the test fixtures' synthetic
			// clusters: the release each runs is data, not a gate
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "vendor") || p == self || p == filepath.Join(root, "internal", "archivegen") {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		checked++
		rel, _ := filepath.Rel(root, p)
		src := func(n ast.Node) string {
			return types(fset, n)
		}
		report := func(n ast.Node, what string) {
			t.Errorf("%s:%d: %s: a version gate belongs in internal/platform with its source", rel, fset.Position(n.Pos()).Line, what)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.BinaryExpr:
				switch x.Op {
				case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
				default:
					return true
				}
				for _, pair := range [][2]ast.Expr{{x.X, x.Y}, {x.Y, x.X}} {
					if lit, ok := pair[0].(*ast.BasicLit); ok && lit.Kind == token.INT && bigger(lit.Value, 1) && minorish.MatchString(src(pair[1])) {
						report(x, "comparison of "+src(pair[1])+" with "+lit.Value)
					}
				}
			case *ast.ValueSpec:
				if sel, ok := x.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "OCPMinor" {
					report(x, "OCPMinor "+x.Names[0].Name+" declared outside internal/platform")
				}
			case *ast.CallExpr:
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "OCPMinor" && len(x.Args) == 1 {
					if lit, ok := x.Args[0].(*ast.BasicLit); ok && lit.Kind == token.INT && bigger(lit.Value, 1) {
						report(x, "OCPMinor("+lit.Value+")")
					}
				}
			case *ast.BasicLit:
				if x.Kind == token.STRING && version.MatchString(x.Value) {
					report(x, "version literal "+x.Value)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d files checked: is the walk rooted at the repository?", checked)
	}
}

func bigger(lit string, n int) bool {
	v, err := strconv.ParseInt(lit, 0, 64)
	return err == nil && v > int64(n)
}

// types renders an expression's source text.
func types(fset *token.FileSet, n ast.Node) string {
	var b strings.Builder
	ast.Inspect(n, func(m ast.Node) bool {
		switch x := m.(type) {
		case *ast.Ident:
			b.WriteString(x.Name + " ")
		case *ast.BasicLit:
			b.WriteString(x.Value + " ")
		}
		return true
	})
	return strings.TrimSpace(b.String())
}
