package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
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
// paste it: the whole pipeline,
// each command's standard output piped into the next one's standard input,
// with `< FILE` as the first command's stdin and `> FILE` written by the
// last. siteforge runs in the test's process; another program of a
// pipeline (jq) runs as itself, and where it is not installed the example
// is skipped, loudly, after the siteforge commands before it ran. A
// siteforge command must run: exit 0, or 1 (findings), never 2; another
// program must exit 0; a command piped into another must print something.
func TestHelpExamplesRun(t *testing.T) {
	examples, err := filepath.Abs("../../../../examples")
	if err != nil {
		t.Fatal(err)
	}
	mustGather, err := filepath.Abs(filepath.Join("../../../../internal/archivegen/testdata/kcs6996487", archivegen.DestDir))
	if err != nil {
		t.Fatal(err)
	}
	n, piped := 0, 0
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
			p, err := parsePipeline(line)
			if err != nil {
				t.Errorf("%s: %v", line, err)
				continue
			}
			if len(p.stages) > 1 && p.stages[1][0] == "siteforge" {
				piped++
			}
			t.Run(line, func(t *testing.T) {
				dir := t.TempDir()
				if err := os.Symlink(examples, filepath.Join(dir, "examples")); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(mustGather, filepath.Join(dir, archivegen.DestDir)); err != nil {
					t.Fatal(err)
				}
				in := ""
				if p.stdin != "" {
					b, err := os.ReadFile(filepath.Join(dir, p.stdin))
					if err != nil {
						t.Fatal(err)
					}
					in = string(b)
				}
				for i, args := range p.stages {
					var out string
					if args[0] == "siteforge" {
						r := mainInStdin(t, dir, in, args[1:]...)
						if r.code != ExitOK && r.code != ExitFindings {
							t.Fatalf("%s: exit %d\n%.3000s%.3000s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
						}
						out = r.stdout
					} else {
						if _, err := exec.LookPath(args[0]); err != nil {
							t.Skipf("SKIPPED: %s is not installed: the example ran up to it, not through it", args[0])
						}
						cmd := exec.Command(args[0], args[1:]...)
						cmd.Dir, cmd.Stdin = dir, strings.NewReader(in)
						var stdout, stderr bytes.Buffer
						cmd.Stdout, cmd.Stderr = &stdout, &stderr
						if err := cmd.Run(); err != nil {
							t.Fatalf("%s: %v\n%.3000s%.3000s", strings.Join(args, " "), err, stdout.String(), stderr.String())
						}
						out = stdout.String()
					}
					if i+1 < len(p.stages) && out == "" {
						t.Fatalf("%s printed nothing for %s to read", strings.Join(args, " "), strings.Join(p.stages[i+1], " "))
					}
					in = out
				}
				if p.stdout != "" && in == "" {
					t.Errorf("nothing written to %s", p.stdout)
				}
			})
		}
	}
	if n < 10 {
		t.Errorf("only %d examples: every command with a PATH shows how to run it", n)
	}
	if piped == 0 {
		t.Error("no example pipes siteforge into siteforge: the parser of pipelines is not exercised")
	}
}

// pipeline is a help example's command line: its commands, each one's
// arguments, and the files of `< FILE` and `> FILE`.
type pipeline struct {
	stages        [][]string
	stdin, stdout string
}

// parsePipeline splits a shell command line as sh would for the examples'
// syntax: words, '...' and "..." quoted (without escapes or expansions),
// and |, < and > outside quotes.
func parsePipeline(line string) (pipeline, error) {
	var p pipeline
	var words []string
	var word strings.Builder
	inWord := false
	var quote rune
	redirect := ""
	end := func() error {
		if inWord {
			w := word.String()
			switch redirect {
			case "<":
				p.stdin = w
			case ">":
				p.stdout = w
			default:
				words = append(words, w)
			}
			redirect = ""
		} else if redirect != "" {
			return fmt.Errorf("%s without a file", redirect)
		}
		word.Reset()
		inWord = false
		return nil
	}
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				if err := end(); err != nil {
					return p, err
				}
			}
		case r == '<' || r == '>':
			if err := end(); err != nil {
				return p, err
			}
			redirect = string(r)
		case r == '|':
			if err := end(); err != nil {
				return p, err
			}
			if len(words) == 0 {
				return p, fmt.Errorf("a pipe without a command before it")
			}
			p.stages, words = append(p.stages, words), nil
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return p, fmt.Errorf("unterminated %c quote", quote)
	}
	if err := end(); err != nil {
		return p, err
	}
	if len(words) == 0 {
		return p, fmt.Errorf("a pipe without a command after it")
	}
	p.stages = append(p.stages, words)
	return p, nil
}

// mainInStdin is mainIn with stdin.
func mainInStdin(t *testing.T, dir, stdin string, args ...string) ran {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(stdin), &out, &errb)
	return ran{code: code, stdout: out.String(), stderr: errb.String()}
}

// TestParsePipeline: the help examples' command lines split as sh splits
// them.
func TestParsePipeline(t *testing.T) {
	for _, tc := range []struct {
		line string
		want pipeline
		err  string
	}{
		{line: "siteforge vet - < examples/site.yaml", want: pipeline{stages: [][]string{{"siteforge", "vet", "-"}}, stdin: "examples/site.yaml"}},
		{line: "siteforge render --stdout x | siteforge lint -", want: pipeline{stages: [][]string{{"siteforge", "render", "--stdout", "x"}, {"siteforge", "lint", "-"}}}},
		{line: `siteforge vet --format json x | jq '.d[] | select(.s == "error")'`, want: pipeline{stages: [][]string{{"siteforge", "vet", "--format", "json", "x"}, {"jq", `.d[] | select(.s == "error")`}}}},
		{line: "siteforge lint x > out.sarif", want: pipeline{stages: [][]string{{"siteforge", "lint", "x"}}, stdout: "out.sarif"}},
		{line: "siteforge lint x |", err: "without a command after it"},
		{line: "siteforge lint 'x", err: "unterminated"},
		{line: "siteforge lint x >", err: "> without a file"},
	} {
		got, err := parsePipeline(tc.line)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one saying %q", tc.line, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.line, err)
		case tc.err == "" && fmt.Sprint(got) != fmt.Sprint(tc.want):
			t.Errorf("%s: %q, want %q", tc.line, got, tc.want)
		}
	}
}
