package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLintStdinAsFile: `lint -` lints what it reads as `lint FILE` lints the
// same content in a file: a stream of manifests as plain manifests, a site
// (YAML, JSON or CUE, told apart by its syntax) through the site pipeline
// (load, render, the lint rules on what it renders), a broken one with the
// same INP findings; the same report and exit code, <stdin> for the file's
// name.
func TestLintStdinAsFile(t *testing.T) {
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join("../../../../examples", p))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	yamlSite, cueSite := read("disconnected-quay-cache/site.yaml"), read("agent-sno/site.cue")
	rendered := mainInStdin(t, t.TempDir(), "", "render", "--stdout", filepath.Join(mustAbs(t, "../../../../examples"), "agent-sno"))
	if rendered.code != ExitOK || !strings.Contains(rendered.stdout, "\nkind: ImageTagMirrorSet\n") {
		t.Fatalf("render --stdout: exit %d\n%.2000s%.2000s", rendered.code, rendered.stdout, rendered.stderr)
	}
	for _, tc := range []struct {
		name, file, content string
		code                int    // of lint FILE and lint -
		want                string // in lint -'s text report
	}{
		{"manifests", "rendered.yaml", rendered.stdout, ExitOK, "[MIR018]"},
		{"broken manifests", "broken.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  bad: [\n", ExitFindings, "<stdin>:5:1: error: syntax error"},
		{"YAML site", "site.yaml", yamlSite, ExitOK, "<stdin>:122:11: info: ImageTagMirrorSet"},
		{"CUE site", "site.cue", cueSite, ExitOK, "<stdin>:118:9: info: ImageTagMirrorSet"},
		{"JSON site", "site.json", `{"apiVersion": "siteforge.dev/v1alpha1", "kind": "Site", "name": "lab", "bogusField": 1}`, ExitFindings, `<stdin>:1:74: error: field "bogusField" is not allowed`},
		{"YAML site with an unknown field", "site.yaml", yamlSite + "bogusField: 1\n", ExitFindings, `<stdin>:208:1: error: field "bogusField" is not allowed`},
		{"CUE site that does not parse", "site.cue", strings.Replace(cueSite, "kind:", "kind: {", 1), ExitFindings, "<stdin>:138:3: error: syntax error: expected '}'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, tc.file), []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, format := range []string{"text", "json"} {
				file := mainIn(t, dir, "lint", "--format", format, tc.file)
				stdin := mainInStdin(t, dir, tc.content, "lint", "--format", format, "-")
				if file.code != tc.code || stdin.code != tc.code {
					t.Fatalf("%s: lint %s exited %d, lint - %d, want %d\n%s%s\n%s%s", format, tc.file, file.code, stdin.code, tc.code, file.stdout, file.stderr, stdin.stdout, stdin.stderr)
				}
				name := "<stdin>"
				if format == "json" {
					name = `\u003cstdin\u003e` // encoding/json's escape of < and >
				}
				if want := strings.ReplaceAll(file.stdout, tc.file, name); stdin.stdout != want {
					t.Errorf("%s: lint - reports\n%s\nlint %s (its name as <stdin>)\n%s", format, stdin.stdout, tc.file, want)
				}
				if stdin.stderr != file.stderr {
					t.Errorf("%s: lint - says on stderr\n%s\nlint %s\n%s", format, stdin.stderr, tc.file, file.stderr)
				}
				if format == "text" && !strings.Contains(stdin.stdout, tc.want) {
					t.Errorf("lint - does not report %q:\n%s", tc.want, stdin.stdout)
				}
			}
		})
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}
