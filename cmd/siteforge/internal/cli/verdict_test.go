package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"
)

// TestOneVerdict is the acceptance test of "One verdict": a site gets the
// same answer from every command that reads it. Each folder of
// testdata/verdict holds one site with one realistic mistake and a file
// expect naming the error(s) it must give, one "RULE FILE:LINE:COL" a line
// (FILE relative to the case folder; "# " lines say what the mistake is).
// Every command below must report each expected error, the same set of
// errors (rule and position) as every other command, and its documented
// exit code.
func TestOneVerdict(t *testing.T) {
	argocdEnv(t, nil)
	cases, err := os.ReadDir(filepath.Join("testdata", "verdict"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cases {
		if c.IsDir() {
			names = append(names, c.Name())
		}
	}
	// The test must not pass vacuously.
	if len(names) < 40 {
		t.Fatalf("%d cases in testdata/verdict, want at least 40", len(names))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			src, err := filepath.Abs(filepath.Join("testdata", "verdict", name))
			if err != nil {
				t.Fatal(err)
			}
			want := readExpect(t, filepath.Join(src, "expect"))
			// A copy outside the repository's git work tree, so every
			// command sees the site as a user's repository holds it.
			root := t.TempDir()
			copySite(t, src, filepath.Join(root, name))
			results := runVerdictCommands(t, root, name)
			checkVerdicts(t, want, results)
		})
	}
}

// verdictError is one error a command reported: its rule (empty when the
// command printed none) and position relative to the case folder.
type verdictError struct{ rule, pos string }

func (e verdictError) String() string {
	r := e.rule
	if r == "" {
		r = "(no rule)"
	}
	return r + " " + e.pos
}

type verdictResult struct {
	command  string
	code     int
	wantCode int
	errs     map[verdictError]bool
	// msgs are the errors' messages (text: "path: message"; lint: that,
	// then " (hint)"), to compare across commands.
	msgs     map[verdictError]string
	problems []string // what this command got wrong besides the set
	output   string   // what it printed, bounded, for the failure message
}

func readExpect(t *testing.T, file string) map[verdictError]bool {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("every case needs an expect file: %v", err)
	}
	want := map[verdictError]bool{}
	for i, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Fields(l)
		if len(f) != 2 || !regexp.MustCompile(`^[A-Z]{3}[0-9]{3}$`).MatchString(f[0]) || !regexp.MustCompile(`^[^:]+:[0-9]+:[0-9]+$`).MatchString(f[1]) {
			t.Fatalf("%s:%d: want RULE FILE:LINE:COL, got %q", file, i+1, l)
		}
		want[verdictError{f[0], f[1]}] = true
	}
	if len(want) == 0 {
		t.Fatalf("%s names no expected error", file)
	}
	return want
}

func copySite(t *testing.T, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		if e.IsDir() || e.Name() == "expect" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(b)
	}
	if len(files) == 0 {
		t.Fatalf("%s holds no site", from)
	}
	writeTree(t, to, files)
}

// errorLine is a text command's error: file:line:col: error: message [RULE]
// (a whole-input error has no line and column).
var errorLine = regexp.MustCompile(`^(\S+?)(?::([0-9]+):([0-9]+))?: error: (.*?)(?: \[([A-Z]{3}[0-9]{3})\])?$`)

// textErrors parses the error lines of stderr; dir is the prefix the
// command prints before the case folder's files.
func textErrors(stderr, dir string) (map[verdictError]bool, map[verdictError]string) {
	errs, msgs := map[verdictError]bool{}, map[verdictError]string{}
	for _, l := range strings.Split(stderr, "\n") {
		m := errorLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		e := verdictError{m[5], position(m[1], m[2], m[3], dir)}
		errs[e], msgs[e] = true, m[4]
	}
	return errs, msgs
}

// position is file:line:col relative to the case folder.
func position(file, line, col, dir string) string {
	file = filepath.ToSlash(filepath.Clean(file))
	if dir != "" && dir != "." {
		if rest, ok := strings.CutPrefix(file, dir+"/"); ok {
			file = rest
		} else if file == dir {
			file = "."
		}
	}
	if line == "" {
		return file
	}
	return file + ":" + line + ":" + col
}

func bounded(s string) string {
	const max = 1500
	if len(s) > max {
		return s[:max] + "\n[... " + strconv.Itoa(len(s)-max) + " more bytes]"
	}
	return s
}

// runVerdictCommands runs every command on the case folder root/name.
func runVerdictCommands(t *testing.T, root, name string) []verdictResult {
	t.Helper()
	var out []verdictResult
	// The documented exit codes (README "Commands and exit codes", each
	// command's help): 2 when the tool could not do its job (an invalid
	// site for vet, render, mtu, fn and argocd generate), 1 for lint's
	// findings.
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"vet", name}, ExitFailure},
		{[]string{"render", "--stdout", name}, ExitFailure},
		{[]string{"mtu", name}, ExitFailure},
	} {
		r := mainIn(t, root, c.args...)
		res := verdictResult{command: strings.Join(c.args[:len(c.args)-1], " "), code: r.code, wantCode: c.code,
			output: "stderr:\n" + bounded(r.stderr)}
		res.errs, res.msgs = textErrors(r.stderr, name)
		if c.args[0] == "render" && r.code != ExitOK && r.stdout != "" {
			res.problems = append(res.problems, "failed with output on stdout")
		}
		out = append(out, res)
	}

	r := mainIn(t, root, "lint", "--format", "json", name)
	out = append(out, lintVerdict(r, name))

	// The site on standard input (vet -, lint -): the same errors, at
	// <stdin>:L:C for the site file's L:C.
	entries, err := os.ReadDir(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Logf("SKIPPED: vet - and lint -: %d files make up this site, and stdin holds one", len(entries))
		return append(out, fnAndArgocdVerdicts(t, root, name)...)
	}
	file := entries[0].Name()
	data, err := os.ReadFile(filepath.Join(root, name, file))
	if err != nil {
		t.Fatal(err)
	}
	r = mainInStdin(t, root, string(data), "vet", "-")
	res := verdictResult{command: "vet -", code: r.code, wantCode: ExitFailure, output: "stderr:\n" + bounded(r.stderr)}
	res.errs, res.msgs = textErrors(r.stderr, "")
	out = append(out, fromStdin(res, file))
	r = mainInStdin(t, root, string(data), "lint", "--format", "json", "-")
	res = lintVerdict(r, "")
	res.command = "lint --format json -"
	out = append(out, fromStdin(res, file))
	return append(out, fnAndArgocdVerdicts(t, root, name)...)
}

// fromStdin is res with the errors at <stdin> put at file, the site file
// whose content stdin held.
func fromStdin(res verdictResult, file string) verdictResult {
	errs, msgs := map[verdictError]bool{}, map[verdictError]string{}
	for e := range res.errs {
		m := res.msgs[e]
		if rest, ok := strings.CutPrefix(e.pos, "<stdin>"); ok {
			e.pos = file + rest
		}
		errs[e], msgs[e] = true, m
	}
	res.errs, res.msgs = errs, msgs
	return res
}

// fnAndArgocdVerdicts runs the KRM function and argocd generate on the
// case folder root/name.
func fnAndArgocdVerdicts(t *testing.T, root, name string) []verdictResult {
	t.Helper()
	var out []verdictResult

	rl := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n" +
		"  apiVersion: siteforge.dev/v1alpha1\n  kind: SiteRender\n  metadata:\n    name: render\n" +
		"    annotations:\n      config.kubernetes.io/local-config: \"true\"\n" +
		"  spec:\n    paths: [" + strconv.Quote(name) + "]\nitems: []\n"
	out = append(out, fnVerdict(t, root, name, rl))

	r := mainIn(t, filepath.Join(root, name), "argocd", "generate")
	res := verdictResult{command: "argocd generate", code: r.code, wantCode: ExitFailure,
		output: "stderr:\n" + bounded(r.stderr)}
	res.errs, res.msgs = textErrors(r.stderr, ".")
	if r.code != ExitOK && r.stdout != "" {
		res.problems = append(res.problems, "failed with output on stdout")
	}
	if r.code != ExitOK && !errorLine.MatchString(strings.SplitN(r.stderr, "\n", 2)[0]) {
		res.problems = append(res.problems, "stderr does not start with a file:line:col: error: line")
	}
	out = append(out, res)
	return out
}

func lintVerdict(r ran, name string) verdictResult {
	res := verdictResult{command: "lint --format json", code: r.code, wantCode: ExitFindings,
		errs: map[verdictError]bool{}, msgs: map[verdictError]string{}, output: "stdout:\n" + bounded(r.stdout) + "\nstderr:\n" + bounded(r.stderr)}
	var report struct {
		Findings []struct {
			Rule     string `json:"rule"`
			Severity string `json:"severity"`
			Message  string `json:"message"`
			File     string `json:"file"`
			Line     int    `json:"line"`
			Column   int    `json:"column"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &report); err != nil {
		res.problems = append(res.problems, "stdout is not a JSON report: "+err.Error())
		return res
	}
	for _, f := range report.Findings {
		if f.Severity != "error" {
			continue
		}
		line, col := "", ""
		if f.Line > 0 {
			line, col = strconv.Itoa(f.Line), strconv.Itoa(f.Column)
		}
		e := verdictError{f.Rule, position(f.File, line, col, name)}
		res.errs[e], res.msgs[e] = true, f.Message
	}
	return res
}

// fnVerdict runs the KRM function with a SiteRender config naming the case
// folder, from root (the kustomization folder): the errors are the
// file:line:col: error: lines on stderr, and the ResourceList's error
// results must say the same.
func fnVerdict(t *testing.T, root, name, rl string) verdictResult {
	t.Helper()
	t.Chdir(root)
	var stdout, stderr strings.Builder
	code := Main([]string{"fn"}, strings.NewReader(rl), &stdout, &stderr)
	res := verdictResult{command: "fn SiteRender", code: code, wantCode: ExitFailure,
		output: "stderr:\n" + bounded(stderr.String())}
	res.errs, res.msgs = textErrors(stderr.String(), name)
	var list struct {
		Items   []map[string]any `json:"items"`
		Results []struct {
			Severity string `json:"severity"`
			File     struct {
				Path string `json:"path"`
			} `json:"file"`
			Tags map[string]string `json:"tags"`
		} `json:"results"`
	}
	if err := sigsyaml.Unmarshal([]byte(stdout.String()), &list); err != nil {
		res.problems = append(res.problems, "stdout is not a ResourceList: "+err.Error())
		return res
	}
	if code != ExitOK && len(list.Items) > 0 {
		res.problems = append(res.problems, fmt.Sprintf("failed with %d items", len(list.Items)))
	}
	results := map[verdictError]bool{}
	for _, r := range list.Results {
		if r.Severity != "error" || r.File.Path == "" {
			continue // the summary result names no file
		}
		results[verdictError{r.Tags["rule"], position(r.File.Path, r.Tags["line"], r.Tags["column"], name)}] = true
	}
	if d := setDiff(results, res.errs); d != "" {
		res.problems = append(res.problems, "its ResourceList results differ from its stderr: "+d)
	}
	return res
}

func sortedErrs(s map[verdictError]bool) []string {
	var l []string
	for e := range s {
		l = append(l, e.String())
	}
	sort.Strings(l)
	return l
}

// setDiff says how got differs from want ("" when equal).
func setDiff(got, want map[verdictError]bool) string {
	var extra, missing []string
	for e := range got {
		if !want[e] {
			extra = append(extra, e.String())
		}
	}
	for e := range want {
		if !got[e] {
			missing = append(missing, e.String())
		}
	}
	if len(extra) == 0 && len(missing) == 0 {
		return ""
	}
	sort.Strings(extra)
	sort.Strings(missing)
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "lacks "+strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		parts = append(parts, "also has "+strings.Join(extra, ", "))
	}
	return strings.Join(parts, "; ")
}

func checkVerdicts(t *testing.T, want map[verdictError]bool, results []verdictResult) {
	t.Helper()
	for i, r := range results {
		var problems []string
		if r.code != r.wantCode {
			problems = append(problems, fmt.Sprintf("exit %d, want %d", r.code, r.wantCode))
		}
		for e := range want {
			if !r.errs[e] {
				problems = append(problems, "does not report the expected "+e.String())
			}
		}
		var differs []string
		for j, o := range results {
			if j != i && setDiff(r.errs, o.errs) != "" {
				differs = append(differs, o.command)
			}
		}
		if len(differs) > 0 {
			problems = append(problems, "reports other errors than "+strings.Join(differs, ", "))
		}
		// the same message: every text command prints "path: message"
		// as vet does; lint's message is that, then " (hint)"
		for e, m := range r.msgs {
			v, ok := results[0].msgs[e]
			if !ok || m == v || strings.HasPrefix(m, v+" (") {
				continue
			}
			problems = append(problems, fmt.Sprintf("says %q at %s, vet says %q", m, e, v))
		}
		problems = append(problems, r.problems...)
		if len(problems) > 0 {
			t.Errorf("%s: %s\n  reported: [%s]\n  %s", r.command, strings.Join(problems, "\n  "),
				strings.Join(sortedErrs(r.errs), ", "), strings.ReplaceAll(r.output, "\n", "\n    "))
		}
	}
}
