package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The regression tests of the hardening issue, one per defect, through
// Main as the binary runs it. (Signals, kill -9, the watchdog and memory
// figures need a real process: e2e/hardening_test.go.)

const hardSite = `apiVersion: siteforge.dev/v1alpha1
kind: Site
name: lab
cluster:
  baseDomain: example.com
  version: "4.16"
  platform: baremetal
  installMethod: agent
  lifecycle: install
network:
  machineNetwork: [192.168.0.0/24]
pools:
  master:
    uplinkInterface: eno1
    uplinkMTU: 1500
`

type ran struct {
	code           int
	stdout, stderr string
	took           time.Duration
}

// mainIn runs Main in dir with a deadline: a command that blocks fails the
// test instead of hanging it.
func mainIn(t *testing.T, dir string, args ...string) ran {
	t.Helper()
	t.Chdir(dir)
	done := make(chan ran, 1)
	go func() {
		var out, errb bytes.Buffer
		start := time.Now()
		code := Main(args, strings.NewReader(""), &out, &errb)
		done <- ran{code: code, stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	}()
	select {
	case r := <-done:
		return r
	case <-time.After(60 * time.Second):
		t.Fatalf("siteforge %s did not return within 60 s", strings.Join(args, " "))
	}
	return ran{}
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// noStage fails when a render left a stage or wrote output.
func noDebris(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".siteforge-stage-") {
			t.Errorf("stage left behind: %s", p)
		}
		return nil
	})
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Errorf("a failed render wrote out/")
	}
}

// Defect 1: a panic in a worker goroutine exits 2, never 0 with an empty
// stream (before: the panic escaped the workers, and the main goroutine
// could return 0 before the runtime finished crashing). Run many times
// (panicRuns); make test runs it with -race through the race target as
// well.
func TestWorkerPanicExits2(t *testing.T) {
	dir := t.TempDir()
	sites := map[string]string{"fleet/defaults.cue": "package site\n"}
	for i := 0; i < 6; i++ {
		sites[fmt.Sprintf("fleet/sites/s%d/site.yaml", i)] = strings.Replace(hardSite, "name: lab", fmt.Sprintf("name: s%d", i), 1)
	}
	write(t, dir, sites)
	testHookSite = func(name string) {
		if name == "s3" {
			panic("forced by the test")
		}
	}
	defer func() { testHookSite = nil }()
	for i := 0; i < panicRuns; i++ {
		for _, verb := range [][]string{{"render", "--stdout"}, {"render", "-o", "out"}, {"vet"}, {"lint"}} {
			r := mainIn(t, dir, append(verb, "fleet")...)
			if r.code != ExitFailure {
				t.Fatalf("%v: exit %d, want 2\n%s", verb, r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, "siteforge: internal error: forced by the test") || !strings.Contains(r.stderr, "please report it") {
				t.Fatalf("%v: stderr %q", verb, r.stderr)
			}
			if len(verb) > 1 && verb[1] == "--stdout" && r.stdout != "" {
				t.Fatalf("a panicking render wrote %d bytes to stdout", len(r.stdout))
			}
			noDebris(t, dir)
		}
	}
}

// Defect 2: loader panics are fixed at their root: each input exits 2 with
// a positioned diagnostic, and a failed render -o leaves nothing behind.
func TestLoaderCrashers(t *testing.T) {
	for name, tc := range map[string]struct{ file, content, want string }{
		"unknown field with an import": {"site.cue", "import \"strings\"\nnmae: strings.ToLower(\"LAB\")\n",
			`site.cue:2:1: error: field "nmae" is not allowed`},
		"fuzz crasher: package as a value": {"site.cue", `import"strings",A0:strings`,
			`site.cue:1:17: error: field "A0" is not allowed`},
		"CR-only line ends, nested mappings": {"site.yaml", "a:\r  b:\r    c: 1\r",
			`site.yaml:1:1: error: field "a" is not allowed`},
		"CR-only line ends, a list": {"site.yaml", "a:\r- 1\r- 2\r",
			`site.yaml:1:1: error: field "a" is not allowed`},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, map[string]string{"s/" + tc.file: tc.content})
			for _, verb := range [][]string{{"vet"}, {"render", "-o", "out"}, {"render", "--stdout"}} {
				r := mainIn(t, dir, append(verb, "s")...)
				if r.code != ExitFailure || !strings.Contains(r.stderr, "s/"+tc.want) || strings.Contains(r.stderr, "internal error") {
					t.Errorf("%v: exit %d\n%s", verb, r.code, r.stderr)
				}
				noDebris(t, dir)
			}
		})
	}
}

// YAML line breaks are CR LF, CR or LF (YAML 1.2, 5.4 "Line Break
// Characters"): a site written with CR-only line ends is valid, and its
// errors are reported at the line YAML counts.
func TestCROnlyLineEnds(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"ok/site.yaml":  strings.ReplaceAll(hardSite, "\n", "\r"),
		"bad/site.yaml": strings.ReplaceAll(strings.Replace(hardSite, "uplinkMTU: 1500", "uplinkMTU: 15", 1), "\n", "\r"),
	})
	if r := mainIn(t, dir, "vet", "ok"); r.code != ExitOK {
		t.Errorf("CR-only site: exit %d\n%s", r.code, r.stderr)
	}
	r := mainIn(t, dir, "vet", "bad")
	if r.code != ExitFailure || !strings.Contains(r.stderr, "bad/site.yaml:15:16: error: pools.master.uplinkMTU: 15 is out of range") ||
		!strings.Contains(r.stderr, "15 |     uplinkMTU: 15\n") {
		t.Errorf("CR-only site with an error: exit %d\n%s", r.code, r.stderr)
	}
}

// Defect 4: every read is bounded by bytes read and refuses what is not a
// regular file, without blocking (before: a link to /dev/zero exhausted
// memory, a FIFO hung forever, through vet, render, lint and render
// --check).
func TestNonRegularInputs(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"lab/site.yaml": hardSite})
	mk := func(p string, fifo bool) {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if fifo {
			if err := unix.Mkfifo(full, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		if err := os.Symlink("/dev/zero", full); err != nil {
			t.Fatal(err)
		}
	}
	mk("zero/site.yaml", false)
	mk("fifo/site.yaml", true)
	mk("gitops/zero.yaml", false)
	mk("gitops2/fifo.yaml", true)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"vet", "zero"}, "zero/site.yaml: error: cannot read: not a regular file: it is a character device"},
		{[]string{"vet", "zero/site.yaml"}, "not a regular file: it is a character device"},
		{[]string{"render", "-o", "out", "zero"}, "not a regular file: it is a character device"},
		{[]string{"vet", "fifo"}, "fifo/site.yaml: error: cannot read: not a regular file: it is a named pipe (FIFO)"},
		{[]string{"render", "--stdout", "fifo"}, "a named pipe (FIFO)"},
		{[]string{"mirrors", "preview", "gitops2"}, "a named pipe (FIFO)"},
	} {
		r := mainIn(t, dir, tc.args...)
		if r.code != ExitFailure || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, want 2 and %q\n%s", tc.args, r.code, tc.want, r.stderr)
		}
		if r.took > 10*time.Second {
			t.Errorf("%v took %v", tc.args, r.took)
		}
	}
	// lint: a file that is not regular is a finding (INP006), and the run
	// goes on; it is never read.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"lint", "gitops"}, "gitops/zero.yaml:1:1: error: cannot read: not a regular file: it is a character device [INP006]"},
		{[]string{"lint", "gitops2"}, "gitops2/fifo.yaml:1:1: error: cannot read: not a regular file: it is a named pipe (FIFO) [INP006]"},
	} {
		r := mainIn(t, dir, tc.args...)
		if r.code != ExitFindings || !strings.Contains(r.stdout, tc.want) {
			t.Errorf("%v: exit %d, want 1 and %q\n%s%s", tc.args, r.code, tc.want, r.stdout, r.stderr)
		}
		if r.took > 10*time.Second {
			t.Errorf("%v took %v", tc.args, r.took)
		}
	}
	// render --check with a committed output file replaced by a link to
	// /dev/zero: reported stale, read no further than the expected size
	if r := mainIn(t, dir, "render", "-o", "rendered", "lab"); r.code != ExitOK {
		t.Fatalf("render: %s", r.stderr)
	}
	var victim string
	filepath.WalkDir(filepath.Join(dir, "rendered", "lab"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && victim == "" {
			victim = p
		}
		return nil
	})
	os.Remove(victim)
	if err := os.Symlink("/dev/zero", victim); err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(dir, victim)
	r := mainIn(t, dir, "render", "--check", "-o", "rendered", "lab")
	if r.code != ExitFindings || !strings.Contains(r.stdout, "stale "+rel) {
		t.Errorf("render --check over a link to /dev/zero: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// Defect 6 (the bombs that need no evaluation to be caught): refused before
// CUE evaluates them, in well under the 20 s budget. Memory figures: e2e.
func TestSizeBombs(t *testing.T) {
	var alias strings.Builder
	alias.WriteString(hardSite + "x: &big \"" + strings.Repeat("a", 1<<20) + "\"\nmore: [")
	for i := 0; i < 3000; i++ {
		alias.WriteString("*big, ")
	}
	alias.WriteString("*big]\n")
	netsSite := strings.Replace(hardSite, "[192.168.0.0/24]", "["+strings.TrimSuffix(strings.Repeat("1.2.3.0/24,", 300000), ",")+"]", 1)
	var keys strings.Builder
	keys.WriteString(hardSite)
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&keys, "k%d: 1\n", i)
	}
	var nodes strings.Builder
	nodes.WriteString(hardSite + "    nodes:\n")
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&nodes, "    - {name: n%d, ip: 10.0.%d.%d}\n", i, i/256%256, i%256)
	}
	for name, tc := range map[string]struct{ content, want string }{
		"1 MB string aliased 3000 times": {alias.String(), "syntax error: aliases expand the document to more than 4194304 bytes"},
		"300k machineNetwork entries":    {netsSite, "list of 300000 entries, more than the limit of 2000"},
		"100k unknown keys":              {keys.String(), "top-level declarations, more than the limit of 2000"},
		"100k nodes":                     {nodes.String(), "list of 100000 entries, more than the limit of 2000"},
	} {
		t.Run(name, func(t *testing.T) {
			if len(tc.content) > 4<<20 {
				t.Fatalf("test input is %d bytes, over the file limit: it would test the size limit instead", len(tc.content))
			}
			dir := t.TempDir()
			write(t, dir, map[string]string{"s/site.yaml": tc.content})
			for _, verb := range [][]string{{"vet"}, {"render", "-o", "out"}} {
				r := mainIn(t, dir, append(verb, "s")...)
				if r.code != ExitFailure || !strings.Contains(r.stderr, tc.want) {
					t.Errorf("%v: exit %d, want 2 and %q\n%.2000s", verb, r.code, tc.want, r.stderr)
				}
				if r.took > 20*time.Second {
					t.Errorf("%v took %v", verb, r.took)
				}
				if len(r.stderr) > 4096 {
					t.Errorf("%v: %d bytes of stderr", verb, len(r.stderr))
				}
				noDebris(t, dir)
			}
		})
	}
}

// Defect 8: snippets are bounded and never echo a file that is not a site
// or manifest (before: an error in a one-line 100 MB JSON printed the whole
// line, 209 MB of stderr; a registry auth file was printed line by line).
func TestSnippetsBounded(t *testing.T) {
	dir := t.TempDir()
	long := `{"apiVersion": "siteforge.dev/v1alpha1", "kind": "Site", "name": "lab", "pad": "` + strings.Repeat("p", 3<<20) + `", "bogus": 1}`
	write(t, dir, map[string]string{
		"long/site.json": long,
		"huge.json":      "",
		"auth/config.json": `{"auths": {"quay.example.com": {"auth": "dXNlcjpzM2NyM3Q=", "email": "a@example.com"}},
  "credHelpers": {"x": "y"}}`,
		"key/site.yaml": hardSite + "extra:\n  client-key-data: c2VjcmV0LWtleS1tYXRlcmlhbA==\n",
	})
	// a 100 MB one-line file: refused by size, and no line of it printed
	f, err := os.Create(filepath.Join(dir, "huge.json"))
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"apiVersion": "siteforge.dev/v1alpha1", "x": "`)
	chunk := strings.Repeat("z", 1<<20)
	for i := 0; i < 100; i++ {
		f.WriteString(chunk)
	}
	f.WriteString(`"}`)
	f.Close()
	for _, tc := range []struct {
		args       []string
		want, deny string
	}{
		{[]string{"vet", "long"}, `field "pad" is not allowed`, ""},
		{[]string{"vet", "huge.json"}, "larger than the 4194304-byte limit", "zzzz"},
		{[]string{"vet", "auth/config.json"}, `field "auths" is not allowed`, "dXNlcjpzM2NyM3Q"},
		{[]string{"vet", "key"}, `field "extra" is not allowed`, "c2VjcmV0"},
	} {
		r := mainIn(t, dir, tc.args...)
		if r.code != ExitFailure || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, want %q\n%.3000s", tc.args, r.code, tc.want, r.stderr)
		}
		if len(r.stderr) > 8192 {
			t.Errorf("%v: %d bytes of stderr, want a few hundred per diagnostic", tc.args, len(r.stderr))
		}
		if tc.deny != "" && strings.Contains(r.stderr, tc.deny) {
			t.Errorf("%v: stderr echoes the file's content %q:\n%.2000s", tc.args, tc.deny, r.stderr)
		}
		for _, line := range strings.Split(r.stderr, "\n") {
			if len(line) > 400 {
				t.Errorf("%v: a %d-byte line", tc.args, len(line))
				break
			}
		}
	}
	// lint: the huge file is a finding (INP006, refused by size), no
	// line of it printed.
	r := mainIn(t, dir, "lint", "--format", "json", "huge.json")
	if r.code != ExitFindings || !strings.Contains(r.stdout, "limit for manifests") || !strings.Contains(r.stdout, `"rule": "INP006"`) {
		t.Errorf("lint huge.json: exit %d, want 1 and an INP006 finding\n%.3000s%.3000s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, "zzzz") || len(r.stdout)+len(r.stderr) > 8192 {
		t.Errorf("lint huge.json echoes the file (%d bytes of output)", len(r.stdout)+len(r.stderr))
	}
}

// Defect 11: a file name holding a newline and a forged workflow command,
// or terminal escapes, never reaches stdout or stderr raw, whatever the
// format (before: input diagnostics printed file names as they are).
var ownAnnotation = regexp.MustCompile(`^::(error|warning|notice) file=repo2?/[^,:]*,line=[0-9]+,col=[0-9]+,endLine=[0-9]+,endColumn=[0-9]+,title=INP001 unparsable-file::syntax error`)

func TestWorkflowCommandInjection(t *testing.T) {
	dir := t.TempDir()
	evil := "x\n::error file=forged.yaml,line=1::owned\x1b[2J.yaml"
	write(t, dir, map[string]string{
		"repo/" + evil:           "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [unclosed\n",
		"site/" + evil:           hardSite + "bogus: 1\n",
		"repo2/::warning x.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a\n",
	})
	for _, args := range [][]string{
		{"lint", "--format", "github", "repo"},
		{"lint", "repo"},
		{"lint", "--format", "github", "repo2"},
		{"vet", "site/" + evil},
		{"vet", "site"},
		{"render", "--stdout", "site"},
	} {
		r := mainIn(t, dir, args...)
		if r.code == ExitOK {
			t.Errorf("%q: exit 0", args)
		}
		for _, out := range []string{r.stdout, r.stderr} {
			for _, line := range strings.Split(out, "\n") {
				// The github format's own annotation of the broken file
				// is a workflow command, with the file name escaped in
				// its property (a forged one would start
				// "::error file=forged.yaml" or "::warning x.yaml").
				if out == r.stdout && len(args) > 2 && args[2] == "github" && ownAnnotation.MatchString(line) {
					continue
				}
				if strings.HasPrefix(line, "::") || strings.HasPrefix(line, "##[") {
					t.Errorf("%q: forged workflow command %q", args, line)
				}
			}
			if strings.ContainsRune(out, 0x1b) {
				t.Errorf("%q: raw ESC in output", args)
			}
		}
	}
}
