package load

import (
	"os"
	"path/filepath"
	"testing"

	"cuelang.org/go/cue"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/site"
)

// The loader must never panic, and every failure must be a diagnostic at a
// real position of the input.

func FuzzLoadCUE(f *testing.F) {
	f.Add([]byte(goodCUE))
	addExamples(f, ".cue")
	f.Add([]byte("a: b\nb: a\n"))
	f.Add([]byte("x: {y: x}\n"))
	f.Add([]byte("import \"strings\"\nname: strings.ToLower(\"A\")\n"))
	fuzzLoad(f, "site.cue")
}

func FuzzLoadYAML(f *testing.F) {
	f.Add([]byte(goodYAML))
	addExamples(f, ".yaml")
	f.Add([]byte("a: &a [*a, *a]\n"))
	f.Add([]byte("\xef\xbb\xbfname: x\r\nkind: Site\r\n"))
	fuzzLoad(f, "site.yaml")
}

func FuzzLoadJSON(f *testing.F) {
	f.Add([]byte(`{"apiVersion": "siteforge.dev/v1alpha1", "kind": "Site", "name": "x", "pools": {"master": {"uplinkMTU": 1500}}}`))
	f.Add([]byte(`[1, 2, {"a": null}]`))
	fuzzLoad(f, "site.json")
}

func addExamples(f *testing.F, ext string) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*", "*"+ext))
	more, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*", "sites", "*", "*"+ext))
	for _, p := range append(files, more...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
}

func fuzzLoad(f *testing.F, name string) {
	l := newLoader(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		testHookDecoded = func(v cue.Value, s *site.Site) { checkDecoded(t, v, s) }
		defer func() { testHookDecoded = nil }()
		res := l.LoadSource(name, data)
		if len(res.Sites) == 0 && len(res.Diagnostics) == 0 {
			t.Fatalf("neither a site nor a diagnostic")
		}
		if len(res.Sites) > 0 && len(res.Diagnostics) > 0 {
			t.Fatalf("a site and diagnostics: %v", res.Diagnostics)
		}
		p := &diag.Printer{Source: func(string) ([]byte, bool) { return data, true }}
		for _, d := range res.Diagnostics {
			if d.Pos.File != name || d.Pos.Line < 1 || d.Pos.Col < 1 {
				t.Fatalf("diagnostic without a position in %s: %s", name, d.Error())
			}
			_ = p.Format(d)
		}
	})
}
