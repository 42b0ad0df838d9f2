package network

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
)

// The package's test binary registers this generator only, so Render output
// is exactly what it writes (plus kustomization.yaml for its resources).

// render loads one site and renders it twice, failing when the two renders
// differ.
func render(t *testing.T, path string, strict bool) *generators.Output {
	t.Helper()
	res := load.Load([]string{path})
	if len(res.Diagnostics) > 0 || len(res.Sites) != 1 {
		t.Fatalf("load %s: %d sites\n%v", path, len(res.Sites), res.Diagnostics)
	}
	o, err := generators.Render(res.Sites[0], generators.Options{Strict: strict})
	if err != nil {
		t.Fatalf("render %s: %v", path, err)
	}
	again, err := generators.Render(load.Load([]string{path}).Sites[0], generators.Options{Strict: strict})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Files) != len(o.Files) {
		t.Fatalf("two renders of %s give %d and %d files", path, len(o.Files), len(again.Files))
	}
	for p, b := range o.Files {
		if !bytes.Equal(b, again.Files[p]) {
			t.Errorf("%s: two renders differ", p)
		}
	}
	return o
}

// TestFixtures renders testdata/<case>/site.yaml and compares every file with
// testdata/<case>/expected/ (warnings in expected/WARNINGS). UPDATE_GOLDEN=1
// rewrites the expected files: review the diff.
func TestFixtures(t *testing.T) {
	cases, err := filepath.Glob("testdata/*/site.yaml")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	update := os.Getenv("UPDATE_GOLDEN") != ""
	for _, c := range cases {
		dir := filepath.Dir(c)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			o := render(t, c, false)
			got := map[string][]byte{}
			for p, b := range o.Files {
				got[p] = b
			}
			for name, m := range o.Day0 { // placed by the install finisher, not linked in here
				if m.Resource == "" {
					got["day0/"+name] = m.Data
				}
			}
			if len(o.Warnings) > 0 {
				var w strings.Builder
				for _, d := range o.Warnings {
					w.WriteString(d.Error() + "\n")
				}
				got["WARNINGS"] = []byte(w.String())
			}
			exp := filepath.Join(dir, "expected")
			if update {
				if err := os.RemoveAll(exp); err != nil {
					t.Fatal(err)
				}
				for p, b := range got {
					dst := filepath.Join(exp, filepath.FromSlash(p))
					if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(dst, b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				return
			}
			want := map[string][]byte{}
			err := filepath.WalkDir(exp, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				b, err := os.ReadFile(p)
				rel, _ := filepath.Rel(exp, p)
				want[filepath.ToSlash(rel)] = b
				return err
			})
			if err != nil {
				t.Fatalf("read expected files (UPDATE_GOLDEN=1 writes them): %v", err)
			}
			for _, p := range unionKeys(got, want) {
				switch g, w := got[p], want[p]; {
				case w == nil:
					t.Errorf("extra file %s:\n%s", p, g)
				case g == nil:
					t.Errorf("missing file %s", p)
				case !bytes.Equal(g, w):
					t.Errorf("%s differs (UPDATE_GOLDEN=1 rewrites it):\n--- got\n%s\n--- want\n%s", p, g, w)
				}
			}
		})
	}
}

func unionKeys(a, b map[string][]byte) []string {
	seen := map[string]bool{}
	var keys []string
	for _, m := range []map[string][]byte{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	return keys
}

// diagStrings renders diagnostics as "file:line:col: path: message" with the
// file's base name.
func diagStrings(dl diag.List) []string {
	var out []string
	for _, d := range dl {
		d.Pos.File = filepath.Base(d.Pos.File)
		d.Hint = ""
		out = append(out, strings.TrimPrefix(d.Error(), ""))
	}
	return out
}

// Expected files name sites relative to the repository root: fix it, so the
// tests pass in a checkout without .git as well (a source archive).
func init() { load.SetRepoRoot("../..") }
