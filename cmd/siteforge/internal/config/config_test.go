package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/diag"
	_ "github.com/siteforge/siteforge/lint/rules" // the rules disable names
)

func TestDecode(t *testing.T) {
	f, d := Decode("c.yaml", []byte(`lint:
  fail-on: warning
  format: sarif
  ocp-version: "4.16"
  exclude: [vendor/, "*.gen.yaml"]
  disable:
    - rule: MIR018
      reason: tags are immutable in our registry
`))
	if len(d) > 0 {
		t.Fatalf("a valid file: %v", d)
	}
	want := Lint{FailOn: "warning", Format: "sarif", OCPVersion: "4.16", Exclude: []string{"vendor/", "*.gen.yaml"},
		Disable: []Disabled{{Rule: "MIR018", Reason: "tags are immutable in our registry", Pos: diag.Position{File: "c.yaml", Line: 7, Col: 7}}}}
	if !reflect.DeepEqual(f.Lint, want) {
		t.Errorf("got %+v\nwant %+v", f.Lint, want)
	}
	if _, d := Decode("c.yaml", []byte("# nothing set\n")); len(d) > 0 {
		t.Errorf("a file of comments: %v", d)
	}
}

// TestDecodeRefuses: every mistake is an error at its line and column,
// with "did you mean" where a name was mistyped.
func TestDecodeRefuses(t *testing.T) {
	for name, tc := range map[string]struct {
		src, at, msg string
	}{
		"unknown key":        {"lint:\n  fial-on: error\n", "c.yaml:2:3", `lint: unknown key "fial-on"|did you mean "fail-on"?`},
		"unknown top key":    {"lnit:\n  fail-on: error\n", "c.yaml:1:1", `top level: unknown key "lnit"|did you mean "lint"?`},
		"bad severity":       {"lint:\n  fail-on: fatal\n", "c.yaml:2:12", `unknown severity "fatal"`},
		"bad format":         {"lint:\n  format: sarrif\n", "c.yaml:2:11", `did you mean "sarif"?`},
		"unquoted version":   {"lint:\n  ocp-version: 4.16\n", "c.yaml:2:16", `not the number 4.16|quote it`},
		"bad version":        {"lint:\n  ocp-version: \"five\"\n", "c.yaml:2:16", `lint.ocp-version "five"`},
		"exclude not a list": {"lint:\n  exclude: vendor/\n", "c.yaml:2:12", `a list is expected`},
		"unknown rule":       {"lint:\n  disable:\n    - rule: MTU0001\n      reason: r\n", "c.yaml:3:13", `no rule "MTU0001"|did you mean "MTU001"?`},
		"no reason":          {"lint:\n  disable:\n    - rule: MTU001\n", "c.yaml:3:7", `needs its reason`},
		"a bare rule":        {"lint:\n  disable: [MTU001]\n", "c.yaml:2:13", `a mapping is expected`},
		"set twice":          {"lint:\n  format: json\n  format: text\n", "c.yaml:3:3", `"format" is set twice (first at line 2)`},
		"syntax":             {"lint:\n  format: [json\n", "c.yaml:", `syntax error`},
		"not a mapping":      {"- lint\n", "c.yaml:1:1", `top level: a mapping is expected`},
	} {
		t.Run(name, func(t *testing.T) {
			_, d := Decode("c.yaml", []byte(tc.src))
			if len(d) == 0 {
				t.Fatalf("accepted")
			}
			got := d[0].Pos.String() + ": " + d[0].Message + " " + d[0].Hint
			if !strings.HasPrefix(got, tc.at) {
				t.Errorf("at %s, want %s: %s", d[0].Pos, tc.at, got)
			}
			for _, m := range strings.Split(tc.msg, "|") {
				if !strings.Contains(got, m) {
					t.Errorf("%q does not say %q", got, m)
				}
			}
		})
	}
}

// TestFindUpwards: the file is found in the folder or the nearest above,
// named relative to a relative start; no file anywhere is no error.
func TestFindUpwards(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if f, d := Find(deep); len(d) > 0 || f.Path != "" && strings.HasPrefix(f.Path, root) {
		t.Fatalf("no file under %s: %+v %v", root, f, d)
	}
	for _, dir := range []string{root, filepath.Join(root, "a")} {
		if err := os.WriteFile(filepath.Join(dir, FileName), []byte("lint:\n  format: "+filepath.Base(dir)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// the nearest wins (its format is refused: the nearest was read)
	f, d := Find(deep)
	if f.Path != filepath.Join(root, "a", FileName) || len(d) != 1 || !strings.Contains(d[0].Message, `unknown format "a"`) {
		t.Errorf("Find(%s) = %s %v", deep, f.Path, d)
	}
	t.Chdir(deep)
	if f, _ := Find("."); f.Path != filepath.Join("..", "..", FileName) {
		t.Errorf("Find(.) names %s, want ../../%s", f.Path, FileName)
	}
}

// FuzzDecode: whatever the text, Decode returns (no panic), and every
// problem is at a line of the file (testdata/fuzz holds what it found).
func FuzzDecode(f *testing.F) {
	f.Add("lint:\n  fail-on: warning\n  disable:\n    - rule: MIR018\n      reason: r\n")
	f.Add("lint: &a\n  exclude: *a\n")
	f.Add("lint:\n  format: [\n")
	f.Add("- 1\n")
	f.Fuzz(func(t *testing.T, src string) {
		_, d := Decode("c.yaml", []byte(src))
		// lone CRs end lines, as in every file siteforge reads
		lines := strings.Count(string(diag.LoneCRToLF([]byte(src))), "\n") + 1
		for _, x := range d {
			if x.Pos.File != "c.yaml" || x.Pos.Line < 1 || x.Pos.Line > lines {
				t.Fatalf("a problem at %s in a file of %d lines: %s", x.Pos, lines, x.Message)
			}
		}
	})
}
