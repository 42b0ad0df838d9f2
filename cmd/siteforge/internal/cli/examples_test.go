package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/archivegen"
)

// TestHelpExamplesRun runs every `siteforge ...` line of every command's
// Example text (siteforge --help shows them) from a copy of the
// repository's examples, beside the must-gather `oc adm must-gather` wrote
// of KCS 6996487's cluster (internal/archivegen's fixture), as a user would
// paste it: up to a pipe, with `< FILE` as stdin and `> FILE` written. An
// example must run: exit 0, or 1 (findings), never 2.
func TestHelpExamplesRun(t *testing.T) {
	examples, err := filepath.Abs("../../../../examples")
	if err != nil {
		t.Fatal(err)
	}
	mustGather, err := filepath.Abs(filepath.Join("../../../../internal/archivegen/testdata/kcs6996487", archivegen.DestDir))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range commands {
			if !yield(n) {
				return
			}
		}
	}) {
		for _, line := range strings.Split(commands[name].example, "\n") {
			line = strings.TrimSpace(line)
			if !strings.HasPrefix(line, "siteforge ") {
				continue
			}
			n++
			t.Run(line, func(t *testing.T) {
				dir := t.TempDir()
				if err := os.Symlink(examples, filepath.Join(dir, "examples")); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(mustGather, filepath.Join(dir, archivegen.DestDir)); err != nil {
					t.Fatal(err)
				}
				cmd, _, _ := strings.Cut(line, " | ")
				var stdin, stdout string
				cmd, stdout, _ = strings.Cut(cmd, " > ")
				cmd, stdin, _ = strings.Cut(cmd, " < ")
				args := strings.Fields(cmd)[1:]
				in := ""
				if stdin != "" {
					b, err := os.ReadFile(filepath.Join(dir, strings.TrimSpace(stdin)))
					if err != nil {
						t.Fatal(err)
					}
					in = string(b)
				}
				r := mainInStdin(t, dir, in, args...)
				if r.code != ExitOK && r.code != ExitFindings {
					t.Fatalf("exit %d\n%.3000s%.3000s", r.code, r.stdout, r.stderr)
				}
				if stdout != "" && r.stdout == "" {
					t.Errorf("nothing written to %s", stdout)
				}
			})
		}
	}
	if n < 10 {
		t.Errorf("only %d examples: every command with a PATH shows how to run it", n)
	}
}

// mainInStdin is mainIn with stdin.
func mainInStdin(t *testing.T, dir, stdin string, args ...string) ran {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(stdin), &out, &errb)
	return ran{code: code, stdout: out.String(), stderr: errb.String()}
}
