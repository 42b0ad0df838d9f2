package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestInClusterCacheCAWarning: an in-cluster cache the nodes trust no CA for is one warning,
// MIR025 at the cache's host, from vet, render, lint and the KRM function alike; the example,
// which gives the cache's CA, gets none.
func TestInClusterCacheCAWarning(t *testing.T) {
	example, err := os.ReadFile(filepath.Join(examplesAbs, "remote-quay-in-cluster", "site.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(example)
	i, j := strings.Index(s, "  # The CA of the cache"), strings.Index(s, "  # Images this site pulls")
	if i < 0 || j < i {
		t.Fatal("the example's additionalTrustedCA block moved: update the test")
	}
	hostLine := strings.Count(s[:strings.Index(s, "    host: ")], "\n") + 1
	want := "site.yaml:" + strconv.Itoa(hostLine) + ":11"
	warning := regexp.MustCompile(`(?m)^(\S+): warning: .*\[MIR025\]$`)

	for _, tc := range []struct {
		name, site string
		warns      bool
	}{{"no CA", s[:i] + s[j:], true}, {"the example", s, false}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, map[string]string{"site/site.yaml": tc.site})
			check := func(command string, got []string) {
				t.Helper()
				switch {
				case tc.warns && (len(got) != 1 || !strings.HasSuffix(got[0], want)):
					t.Errorf("%s: MIR025 at %v, want once at %s", command, got, want)
				case !tc.warns && len(got) > 0:
					t.Errorf("%s: MIR025 at %v, want none", command, got)
				}
			}
			text := func(stderr string) []string {
				var at []string
				for _, m := range warning.FindAllStringSubmatch(stderr, -1) {
					at = append(at, m[1])
				}
				return at
			}
			for _, args := range [][]string{{"vet", "site"}, {"render", "--stdout", "site"}} {
				r := mainIn(t, dir, args...)
				if r.code != ExitOK {
					t.Fatalf("%s: exit %d\n%s", args[0], r.code, r.stderr)
				}
				check(args[0], text(r.stderr))
			}
			r := mainIn(t, dir, "lint", "--format", "json", "site")
			var report struct {
				Findings []struct {
					Rule, File   string
					Line, Column int
				}
			}
			if err := json.Unmarshal([]byte(r.stdout), &report); err != nil {
				t.Fatalf("lint: %v\n%s", err, r.stdout)
			}
			var at []string
			for _, f := range report.Findings {
				if f.Rule == "MIR025" {
					at = append(at, f.File+":"+strconv.Itoa(f.Line)+":"+strconv.Itoa(f.Column))
				}
			}
			check("lint", at)
			rl := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n" +
				"  apiVersion: siteforge.dev/v1alpha1\n  kind: SiteRender\n  metadata:\n    name: render\n" +
				"    annotations:\n      config.kubernetes.io/local-config: \"true\"\n" +
				"  spec:\n    paths: [site]\nitems: []\n"
			r = mainInStdin(t, dir, rl, "fn")
			if r.code != ExitOK {
				t.Fatalf("fn: exit %d\n%s", r.code, r.stderr)
			}
			check("fn", text(r.stderr))
		})
	}
}
