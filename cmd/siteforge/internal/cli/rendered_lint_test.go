package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// renderedExamples are the bundled examples; TestRenderedExamplesLintClean
// renders each.
var renderedExamples = []string{"agent-sno", "aws-local-zones", "aws-local-zones-ipi", "disconnected-quay-cache", "remote-workers", "fleet", "kustomize/site"}

// TestRenderedExamplesLintClean: siteforge's own output lints clean. Every
// bundled example is rendered into a temporary folder, and each rendered
// site folder is linted alone (not beside its site), from the repository
// root as a user runs it: `lint --fail-on warning` exits 0. Its patch files
// (the two phases of an MTU migration) are no duplicate objects, and what
// the site suppresses (the installer's mirror conflict, MIR021) is counted
// as suppressed, the site found by the siteforge.dev/source annotation.
func TestRenderedExamplesLintClean(t *testing.T) {
	root, err := filepath.Abs(filepath.Join(examplesDir, ".."))
	if err != nil {
		t.Fatal(err)
	}
	// the rendered folders whose site suppresses a finding of theirs
	suppressing := map[string]bool{"sno-edge": true, "lab-disconnected": true}
	seen := map[string]bool{}
	for _, ex := range renderedExamples {
		t.Run(ex, func(t *testing.T) {
			out := t.TempDir()
			if r := mainIn(t, root, "render", "-o", out, filepath.Join("examples", ex)); r.code != ExitOK {
				t.Fatalf("render examples/%s: exit %d\n%s", ex, r.code, r.stderr)
			}
			entries, err := os.ReadDir(out)
			if err != nil || len(entries) == 0 {
				t.Fatalf("render examples/%s wrote no site folder (%v)", ex, err)
			}
			for _, e := range entries {
				folder := filepath.Join(out, e.Name())
				seen[e.Name()] = true
				r := mainIn(t, root, "lint", "--fail-on", "warning", "--format", "json", folder)
				rep := decodeReport(t, r.stdout)
				if r.code != ExitOK {
					t.Errorf("lint --fail-on warning %s (rendered from examples/%s): exit %d, want 0\n%s%s", e.Name(), ex, r.code, r.stdout, r.stderr)
				}
				for _, f := range rep.Findings {
					if f.Rule == "INP007" {
						t.Errorf("%s: the site was not found: %s", e.Name(), f.Message)
					}
				}
				if suppressing[e.Name()] && rep.Summary.Suppressed == 0 {
					t.Errorf("%s: nothing counted as suppressed, want the site's suppression of MIR021 to apply\n%s", e.Name(), r.stdout)
				}
			}
		})
	}
	for name := range suppressing {
		if !seen[name] {
			t.Errorf("no example renders %s: update the test", name)
		}
	}
}

// TestRenderedFolderSite: a rendered site folder linted without its site
// finds the site by the siteforge.dev/source annotation, relative to the
// repository holding the folder, and applies the site's suppressions; when
// the site does not load or is gone, INP007 says so (an info: the run is
// not failed for it) and the site's suppressions are not applied.
func TestRenderedFolderSite(t *testing.T) {
	abs, _ := filepath.Abs(examplesDir)
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(repo, "sites", "lab")
	copyTree(t, filepath.Join(abs, "disconnected-quay-cache"), site)
	if r := mainIn(t, repo, "render", "-o", "rendered", "sites/lab"); r.code != ExitOK {
		t.Fatalf("render: exit %d\n%s", r.code, r.stderr)
	}
	folder := filepath.Join("rendered", "lab-disconnected")
	lintFolder := func(dir string) (ran, jsonReport) {
		r := mainIn(t, dir, "lint", "--fail-on", "warning", "--format", "json", filepath.Join(repo, folder))
		return r, decodeReport(t, r.stdout)
	}
	rules := func(rep jsonReport) map[string]string {
		m := map[string]string{}
		for _, f := range rep.Findings {
			m[f.Rule] = f.Message
		}
		return m
	}
	// found from the repository holding the folder, whatever the working
	// directory: the site's lint: suppress of MIR021 applies
	for _, dir := range []string{repo, t.TempDir()} {
		r, rep := lintFolder(dir)
		if r.code != ExitOK || rep.Summary.Suppressed == 0 || rules(rep)["INP007"] != "" {
			t.Errorf("from %s: exit %d, %d suppressed; want 0 and the site's suppression applied\n%s%s", dir, r.code, rep.Summary.Suppressed, r.stdout, r.stderr)
		}
	}
	// the site does not load: said, and its suppressions are not applied
	data, err := os.ReadFile(filepath.Join(site, "site.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, repo, map[string]string{"sites/lab/site.yaml": string(data) + "bogus: 1\n"})
	r, rep := lintFolder(repo)
	if msg := rules(rep)["INP007"]; r.code != ExitFindings || !strings.Contains(msg, "does not load") || rules(rep)["MIR021"] == "" {
		t.Errorf("a site that does not load: exit %d, INP007 %q; want 1, INP007 saying so and MIR021 reported\n%s", r.code, msg, r.stdout)
	}
	// the site is gone
	if err := os.RemoveAll(site); err != nil {
		t.Fatal(err)
	}
	r, rep = lintFolder(repo)
	if msg := rules(rep)["INP007"]; r.code != ExitFindings || !strings.Contains(msg, "sites/lab") || !strings.Contains(msg, "not found") || rules(rep)["MIR021"] == "" {
		t.Errorf("a site that is gone: exit %d, INP007 %q; want 1, INP007 naming sites/lab and MIR021 reported\n%s", r.code, msg, r.stdout)
	}
	for _, f := range rep.Findings {
		if f.Rule == "INP007" && f.Severity != "info" {
			t.Errorf("INP007 is %s, want info", f.Severity)
		}
	}
}
