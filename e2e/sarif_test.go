package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSARIFValidatesWithMultitool: siteforge's SARIF passes Microsoft's
// SARIF multitool (`validate`: the SARIF 2.1.0 JSON schema and the SARIF
// rules, SARIF1002 for URIs among them) for inputs whose names hold
// spaces, '#', '%' and non-ASCII letters, given as relative and as absolute
// paths: URIs relative and percent-encoded, every region non-empty, no
// error and no warning. make test installs the multitool (npm) and sets
// SARIF_MULTITOOL.
func TestSARIFValidatesWithMultitool(t *testing.T) {
	tool := os.Getenv("SARIF_MULTITOOL")
	if tool == "" {
		t.Skip("SKIPPED: SARIF_MULTITOOL is not set, so siteforge's SARIF is NOT validated against the SARIF 2.1.0 schema: run through `make test`, which installs Microsoft's SARIF multitool with npm")
	}
	if _, err := os.Stat(tool); err != nil {
		t.Skipf("SKIPPED: the SARIF multitool is not installed (%v): siteforge's SARIF is NOT validated; `make sarif-multitool` needs npm", err)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"my manifests/cat#1 100%.yaml":         "apiVersion: operators.coreos.com/v1alpha1\nkind: CatalogSource\nmetadata:\n  name: redhat-operators\n  namespace: openshift-marketplace\nspec:\n  sourceType: grpc\n  image: registry.redhat.io/redhat/redhat-operator-index:v4.16\n",
		"my manifests/idms ü.yaml":             idmsNeverContact,
		"my manifests/broken café #2 50%.yaml": "a: [\n",
	})
	env := []string{"DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1"}
	uri := regexp.MustCompile(`"uri":\s*"([^"]*)"`)
	for _, arg := range []string{".", dir} {
		res := siteforge(t, dir, "lint", "--format", "sarif", arg)
		if res.code != 1 {
			t.Fatalf("lint --format sarif %s: exit %d, want 1 (findings)\n%s", arg, res.code, res.stderr)
		}
		var log struct {
			Runs []struct {
				Results []struct {
					Locations []struct {
						PhysicalLocation struct {
							Region struct{ StartLine, StartColumn, EndColumn int }
						}
					}
				}
			}
		}
		if err := json.Unmarshal([]byte(res.stdout), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) < 2 {
			t.Fatalf("lint %s: SARIF with findings expected: %v\n%s", arg, err, res.stdout)
		}
		for _, r := range log.Runs[0].Results {
			for _, l := range r.Locations {
				if reg := l.PhysicalLocation.Region; reg.StartLine > 0 && reg.EndColumn <= reg.StartColumn {
					t.Errorf("lint %s: empty region %+v", arg, reg)
				}
			}
		}
		for _, m := range uri.FindAllStringSubmatch(res.stdout, -1) {
			u := m[1]
			nonASCII := strings.IndexFunc(u, func(r rune) bool { return r > 0x7e }) >= 0
			if strings.HasPrefix(u, "/") || strings.HasPrefix(u, "file:") || strings.ContainsAny(u, " #") || nonASCII {
				t.Errorf("lint %s: URI %q is not relative and percent-encoded", arg, u)
			}
		}
		out := filepath.Join(t.TempDir(), "siteforge.sarif")
		if err := os.WriteFile(out, []byte(res.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		v := run(t, dir, env, tool, "validate", out)
		if v.code != 0 || !strings.Contains(v.stdout, "Analysis completed successfully") {
			t.Fatalf("multitool validate (lint %s): exit %d\n%s%s", arg, v.code, v.stdout, v.stderr)
		}
		for _, line := range strings.Split(v.stdout, "\n") {
			if strings.Contains(line, ": error ") || strings.Contains(line, ": warning ") {
				t.Errorf("multitool validate (lint %s): %s", arg, line)
			}
		}
	}
}
