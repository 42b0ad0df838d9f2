package cli

import (
	"path/filepath"
	"strconv"
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
	// no file from the working folder up: the first PATH's folder and up
	if r := mainIn(t, t.TempDir(), "lint", filepath.Join(root, "repo", "clusters", "a", "itms.yaml")); r.code != ExitFailure || !strings.Contains(r.stderr, `unknown key "exlcude"`) {
		t.Errorf("the file above the PATH is not read: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// --config names the file
	if r := mainIn(t, deep, "lint", "--config", filepath.Join(root, "repo", ".siteforge.yaml"), "."); r.code != ExitFindings {
		t.Errorf("--config: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestNewEchoesEscaped: the values the cobra command line, the JSON
// formats and the configuration file echo are escaped as every other
// (TestEchoedValuesEscaped): an unknown key or value of .siteforge.yaml, a
// --format of vet, mtu, mirrors, explain and version, a completion shell,
// an unknown shorthand flag.
func TestNewEchoesEscaped(t *testing.T) {
	for _, h := range hostileValues {
		t.Run(h.name, func(t *testing.T) {
			dir := t.TempDir()
			q := strconv.Quote(h.value)
			write(t, dir, map[string]string{
				"key/.siteforge.yaml":   "lint:\n  " + q + ": 1\n",
				"value/.siteforge.yaml": "lint:\n  format: " + q + "\n",
				"rule/.siteforge.yaml":  "lint:\n  disable:\n    - rule: " + q + "\n      reason: r\n",
			})
			for _, r := range []struct {
				what string
				args []string
			}{
				{"config key", []string{"lint", "--config", "key/.siteforge.yaml", "."}},
				{"config value", []string{"lint", "--config", "value/.siteforge.yaml", "."}},
				{"config rule", []string{"lint", "--config", "rule/.siteforge.yaml", "."}},
				{"vet --format", []string{"vet", "--format", h.value, "x"}},
				{"mtu --format", []string{"mtu", "--format", h.value, "x"}},
				{"mirrors --format", []string{"mirrors", "preview", "--format", h.value, "x"}},
				{"explain --format", []string{"explain", "--format", h.value}},
				{"version --format", []string{"version", "--format", h.value}},
				{"completion shell", []string{"completion", h.value}},
				{"help topic", []string{"help", "x" + h.value}},
			} {
				got := mainIn(t, dir, r.args...)
				if got.code != ExitFailure {
					t.Errorf("%s: exit %d, want 2\n%.2000s%.2000s", r.what, got.code, got.stdout, got.stderr)
				}
				if r.what == "config key" && len(h.value) > 1024 {
					// YAML allows no implicit key longer than 1024
					// characters: a syntax error, which shows no key
					checkSafe(t, r.what, got.stdout+got.stderr)
					continue
				}
				checkEchoed(t, r.what, got.stdout+got.stderr, h.marker)
			}
		})
	}
}
