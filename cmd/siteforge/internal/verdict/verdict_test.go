package verdict

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/lint"
)

var examples = filepath.Join("..", "..", "..", "..", "examples")

// loadSite loads the aws-local-zones example, with edit applied to its
// site.cue.
func loadSite(t *testing.T, edit func(string) string) *site.Site {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(examples, "aws-local-zones", "site.cue"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "site.cue"), []byte(edit(string(b))), 0o644); err != nil {
		t.Fatal(err)
	}
	res := load.Load([]string{dir})
	if len(res.Diagnostics) > 0 || len(res.Sites) != 1 {
		t.Fatalf("the site does not load: %v", res.Diagnostics)
	}
	return res.Sites[0]
}

// uplink9216 is the mistake: an uplink MTU above the 9001 bytes
// AWS carries, which only the lint rule MTU009 (on the rendered objects)
// finds.
func uplink9216(s string) string {
	return strings.Replace(s, "uplinkMTU:       9001", "uplinkMTU:       9216", 1)
}

func same(s string) string { return s }

func TestSite(t *testing.T) {
	v, err := Site(loadSite(t, same), Options{})
	if err != nil || len(v.Errors) > 0 || v.Output == nil || !v.Linted || v.Skipped != "" {
		t.Fatalf("the example: err %v, errors %v, output %v, linted %v, skipped %q", err, v.Errors, v.Output != nil, v.Linted, v.Skipped)
	}

	// a lint rule's error refuses the site, at the site field, under the
	// rule's ID
	v, err = Site(loadSite(t, uplink9216), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v.Output != nil || len(v.Errors) != 1 || v.Errors[0].Rule != "MTU009" || !strings.HasSuffix(v.Errors[0].Pos.File, "site.cue") || v.Errors[0].Pos.Line == 0 {
		t.Errorf("uplink 9216: output %v, errors %v, want the site refused with MTU009 at its site.cue line", v.Output != nil, v.Errors)
	}

	// lint's mode: the same error is a finding, the site is not refused
	v, err = Site(loadSite(t, uplink9216), Options{Findings: true})
	if err != nil {
		t.Fatal(err)
	}
	if v.Output == nil || len(v.Errors) > 0 || len(v.Lint.Findings) != 1 || v.Lint.Findings[0].Rule != "MTU009" || v.Lint.Findings[0].Severity != lint.Error {
		t.Errorf("uplink 9216, findings: output %v, errors %v, findings %v", v.Output != nil, v.Errors, v.Lint.Findings)
	}

	// render only: no lint
	v, err = Site(loadSite(t, uplink9216), Options{RenderOnly: true})
	if err != nil || v.Output == nil || v.Linted || len(v.Errors) > 0 {
		t.Errorf("uplink 9216, render only: err %v, output %v, linted %v, errors %v", err, v.Output != nil, v.Linted, v.Errors)
	}

	// a generator's refusal: its own rule ID, and the note that the lint
	// rules did not run
	v, err = Site(loadSite(t, func(s string) string {
		return strings.Replace(s, "machine: 9001\n", "machine: 9001\n\ttarget: 9500\n", 1)
	}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v.Output != nil || v.Linted || len(v.Errors) != 1 || v.Errors[0].Rule != "MTU001" || !strings.Contains(v.Skipped, "the lint rules did not run") {
		t.Errorf("mtu.target 9500: output %v, linted %v, errors %v, skipped %q", v.Output != nil, v.Linted, v.Errors, v.Skipped)
	}
}

func TestRuled(t *testing.T) {
	got := Ruled(diag.List{{Message: "a"}, {Message: "b", Rule: "INS001"}})
	if got[0].Rule != lint.RuleSiteLoad || got[1].Rule != "INS001" {
		t.Errorf("Ruled: %q, %q; want INP002 for the first, INS001 kept", got[0].Rule, got[1].Rule)
	}
}
