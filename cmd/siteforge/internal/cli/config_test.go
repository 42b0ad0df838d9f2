package cli

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// itmsByTag is an ImageTagMirrorSet: tag mirroring, an info finding
// (MIR018) whatever the version.
const itmsByTag = `apiVersion: config.openshift.io/v1
kind: ImageTagMirrorSet
metadata:
  name: tags
spec:
  imageTagMirrors:
  - source: registry.example.com/team
    mirrors: [mirror.example.com/team]
`

// TestConfigFile: lint reads .siteforge.yaml from the working folder or
// the nearest folder above; flags win over it; a mistyped key is refused
// (exit 2) at its line with "did you mean", before anything is linted.
func TestConfigFile(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"repo/clusters/a/itms.yaml": itmsByTag, // an info finding: MIR018
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

// TestConfigFileExcludeAndOCPVersion: the file's exclude and ocp-version
// are applied (a finding under an excluded folder is gone; a rule that
// depends on the OpenShift version runs at the file's version), and the
// flags win: --ocp-version replaces the file's version, --exclude adds to
// its patterns; --no-config brings both findings back.
func TestConfigFileExcludeAndOCPVersion(t *testing.T) {
	root := t.TempDir()
	// MIR014 (info): an ImageContentSourcePolicy on 4.13 or later; without
	// a version the rule does not run, and its message says where the
	// version comes from
	icsp := `apiVersion: operator.openshift.io/v1alpha1
kind: ImageContentSourcePolicy
metadata:
  name: old
spec:
  repositoryDigestMirrors:
  - source: registry.redhat.io
    mirrors: [mirror.example.com/redhat]
`
	write(t, root, map[string]string{
		".siteforge.yaml":  "lint:\n  ocp-version: \"4.16\"\n  exclude: [vendor/]\n",
		"icsp.yaml":        icsp,
		"vendor/itms.yaml": itmsByTag,
		"extra/itms.yaml":  strings.Replace(itmsByTag, "name: tags", "name: extra", 1),
	})
	const (
		mir014    = "icsp.yaml:2:7: info: ImageContentSourcePolicy old: ImageContentSourcePolicy is deprecated since OpenShift 4.13, and this is 4.16 (from ocp-version in .siteforge.yaml);"
		mir014Any = "[MIR014]"
		vendor    = "vendor/itms.yaml:"
		extra     = "extra/itms.yaml:"
		// MIR016 (error): an ImageTagMirrorSet before 4.13
		mir016 = "extra/itms.yaml:2:7: error: ImageTagMirrorSet extra needs OpenShift 4.13 or later, this is 4.12 (from --ocp-version):"
	)
	for _, tc := range []struct {
		what    string
		args    []string
		code    int
		has     []string
		hasNone []string
	}{
		{"the file's version and exclude", []string{"lint", "."}, ExitOK, []string{mir014, extra}, []string{vendor}},
		{"--no-config", []string{"lint", "--no-config", "."}, ExitOK, []string{vendor, extra}, []string{mir014Any}},
		{"--ocp-version replaces the file's", []string{"lint", "--ocp-version", "4.12", "."}, ExitFindings, []string{mir016}, []string{mir014Any, vendor}},
		{"--ocp-version 4.18", []string{"lint", "--ocp-version", "4.18", "."}, ExitOK, []string{"and this is 4.18 (from --ocp-version);"}, []string{vendor}},
		{"--exclude adds to the file's", []string{"lint", "--exclude", "extra/", "."}, ExitOK, []string{mir014}, []string{vendor, extra}},
	} {
		r := mainIn(t, root, tc.args...)
		if r.code != tc.code {
			t.Errorf("%s: exit %d, want %d\n%s%s", tc.what, r.code, tc.code, r.stdout, r.stderr)
		}
		for _, s := range tc.has {
			if !strings.Contains(r.stdout, s) {
				t.Errorf("%s: no %q in\n%s", tc.what, s, r.stdout)
			}
		}
		for _, s := range tc.hasNone {
			if strings.Contains(r.stdout, s) {
				t.Errorf("%s: %q in\n%s", tc.what, s, r.stdout)
			}
		}
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
