package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigFile: lint reads .siteforge.yaml from the working folder or
// the nearest folder above; flags win over it; a mistyped key is refused
// (exit 2) at its line with "did you mean", before anything is linted.
func TestConfigFile(t *testing.T) {
	root := t.TempDir()
	itms := `apiVersion: config.openshift.io/v1
kind: ImageTagMirrorSet
metadata:
  name: tags
spec:
  imageTagMirrors:
  - source: registry.example.com/team
    mirrors: [mirror.example.com/team]
`
	write(t, root, map[string]string{
		"repo/clusters/a/itms.yaml": itms, // an info finding: MIR018
		"repo/.siteforge.yaml":      "lint:\n  fail-on: info\n",
	})
	deep := filepath.Join(root, "repo", "clusters", "a")

	// found upwards: fail-on info makes the info finding fail the run
	if r := mainIn(t, deep, "lint", "."); r.code != ExitFindings || !strings.Contains(r.stdout, "[MIR018]") {
		t.Errorf("the file two folders up is not used: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// a flag wins over the file
	if r := mainIn(t, deep, "lint", "--fail-on", "error", "."); r.code != ExitOK {
		t.Errorf("--fail-on error does not override the file: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// --no-config reads none
	if r := mainIn(t, deep, "lint", "--no-config", "."); r.code != ExitOK {
		t.Errorf("--no-config: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// a rule disabled with its reason, and the format from the file; the
	// nearest file wins over the one above
	write(t, root, map[string]string{"repo/clusters/.siteforge.yaml": "lint:\n  fail-on: info\n  format: json\n  disable:\n    - rule: MIR018\n      reason: tags are immutable in our registry\n"})
	if r := mainIn(t, deep, "lint", "."); r.code != ExitOK || !strings.Contains(r.stdout, `"findings": []`) {
		t.Errorf("disable and format from the nearest file: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// --disable adds to the file's list, --format replaces the file's
	if r := mainIn(t, deep, "lint", "--format", "text", "--disable", "MIR001", "."); r.code != ExitOK || !strings.HasPrefix(r.stdout, "0 errors, 0 warnings, 0 infos") {
		t.Errorf("flags with the file: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// a typo: exit 2 at its line, with did you mean, nothing linted
	write(t, root, map[string]string{"repo/clusters/.siteforge.yaml": "lint:\n  fail-on: info\n  exlcude: [vendor/]\n"})
	r := mainIn(t, deep, "lint", ".")
	want := "../.siteforge.yaml:3:3: error: lint: unknown key \"exlcude\"\n"
	if r.code != ExitFailure || !strings.HasPrefix(r.stderr, want) || !strings.Contains(r.stderr, `did you mean "exclude"?`) || r.stdout != "" {
		t.Errorf("a mistyped key: exit %d, want 2 and %q with did you mean\n%s%s", r.code, want, r.stdout, r.stderr)
	}
	// --config names the file
	if r := mainIn(t, deep, "lint", "--config", filepath.Join(root, "repo", ".siteforge.yaml"), "."); r.code != ExitFindings {
		t.Errorf("--config: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
