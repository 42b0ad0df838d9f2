package golden

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/lint"
	_ "github.com/siteforge/siteforge/lint/rules"
)

// outsideRef matches text that points a reader at a file outside the
// repository: a path climbing out of it, or the private notes and data this
// project was built from, which users do not have. User-facing text cites
// upstream primary sources (a repository path and function, or a docs
// title) instead.
var outsideRef = regexp.MustCompile(`\.\./shared|shared/(domain|corpus|upstream)|networking\.md|corpus/realworld|/work/`)

// TestNoReferenceOutsideTheRepository greps everything a user reads:
// explain texts (every rule's summary, rationale and fix), docs, README,
// examples, the golden output, the hook and CI files.
func TestNoReferenceOutsideTheRepository(t *testing.T) {
	check := func(where, text string) {
		for i, line := range strings.Split(text, "\n") {
			if m := outsideRef.FindString(line); m != "" {
				t.Errorf("%s:%d: names %q, which is not in the repository: cite the upstream source instead", where, i+1, m)
			}
		}
	}
	for _, r := range lint.Rules() {
		check("explain "+r.ID, strings.Join([]string{r.Summary, r.Rationale, r.Fix}, "\n"))
	}
	scanned := 0
	for _, root := range []string{"../docs", "../examples", "../golden", "../README.md", "../.pre-commit-hooks.yaml", "../schema"} {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			scanned++
			check(strings.TrimPrefix(p, "../"), string(b))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if scanned < 50 {
		t.Fatalf("scanned only %d files", scanned)
	}
	// The pattern finds what it is for.
	for _, bad := range []string{"see ../shared/domain/mtu.md", "networking.md section 4", "from corpus/realworld/x"} {
		if !outsideRef.MatchString(bad) {
			t.Errorf("outsideRef misses %q", bad)
		}
	}
}
