package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeCueVetRecipes runs the README's `cue vet` recipes with the real
// CUE tool: a YAML site and a CUE site (examples/disconnected-quay-cache,
// examples/agent-sno) pass, and each with a misspelled field fails. A
// recipe leaves no file in the site's folder (a check.cue there broke every
// siteforge command on the site), and siteforge vet passes on the folder
// after it. make test installs the CUE tool and sets CUE.
func TestReadmeCueVetRecipes(t *testing.T) {
	cue := os.Getenv("CUE")
	if cue == "" {
		t.Skip("SKIPPED: CUE is not set, so the README's cue vet recipes are NOT tested: run through `make test`, which installs the CUE tool")
	}
	readme := readFile(t, filepath.Join(root, "README.md"))
	blocks := regexp.MustCompile("(?s)```sh\n([^`]*?siteforge schema[^`]*?cue vet[^`]*?)```").FindAllStringSubmatch(readme, -1)
	if len(blocks) != 2 {
		t.Fatalf("want the two cue vet recipes (YAML, CUE) in README.md, found %d", len(blocks))
	}
	env := []string{"PATH=" + filepath.Dir(cue) + string(os.PathListSeparator) + binDir + string(os.PathListSeparator) + os.Getenv("PATH")}
	for i, c := range []struct{ example, file string }{
		{"disconnected-quay-cache", "site.yaml"},
		{"agent-sno", "site.cue"},
	} {
		script := strings.ReplaceAll(blocks[i][1], "cue vet", filepath.Base(cue)+" vet")
		for _, bad := range []bool{false, true} {
			dir := t.TempDir()
			site := readFile(t, filepath.Join(root, "examples", c.example, c.file))
			if bad {
				site = strings.Replace(site, "uplinkMTU", "uplinkMtu", 1)
			}
			writeFiles(t, dir, map[string]string{c.file: site})
			res := run(t, dir, env, "sh", "-ec", script)
			if bad == (res.code == 0) {
				t.Errorf("README recipe %d on %s (misspelled field: %v): exit %d\n%s%s", i+1, c.example, bad, res.code, res.stdout, res.stderr)
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 1 || entries[0].Name() != c.file {
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				t.Errorf("README recipe %d left %v in the site's folder, want only %s", i+1, names, c.file)
			}
			if !bad {
				if res := run(t, dir, env, "siteforge", "vet", "."); res.code != 0 {
					t.Errorf("siteforge vet . after README recipe %d on %s: exit %d\n%s%s", i+1, c.example, res.code, res.stdout, res.stderr)
				}
			}
		}
	}
}
