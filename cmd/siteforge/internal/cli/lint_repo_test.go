package cli

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// copyTree copies a folder (the bundled examples) into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

var examplesDir = filepath.Join("..", "..", "..", "..", "examples")

type jsonReport struct {
	Findings []struct {
		Rule, Severity, File, Message string
		Line                          int
	}
	Summary struct{ Suppressed int }
}

func decodeReport(t *testing.T, out string) jsonReport {
	t.Helper()
	var rep jsonReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("report is not JSON: %v\n%.2000s", err, out)
	}
	return rep
}

// TestLintFleetRepository: `siteforge lint .` at the root of a fleet
// repository as users keep it (sites/, the committed rendered/ output, the
// kustomize function configs, an exported schema, a Helm chart) lints each
// cluster on its own: two stores with different mirror policies (legal) do
// not conflict through their rendered copies, no finding is repeated once
// per rendered copy, nothing is parsed as a site that is not one. Before,
// the same repository gave 3 cross-cluster MIR004 errors from rendered/
// and every site finding again per copy; with the function configs or the
// schema at the root it stopped with exit 2.
func TestLintFleetRepository(t *testing.T) {
	abs, _ := filepath.Abs(examplesDir)
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	copyTree(t, filepath.Join(abs, "fleet"), repo)
	// store-0002 lets its nodes contact the upstreams; the others do not
	f, err := os.OpenFile(filepath.Join(repo, "sites", "store-0002", "site.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\nmirroring:\n  quayCache:\n    policy: AllowContactingSource\n")
	f.Close()
	// the sites alone: the reference
	ref := mainIn(t, repo, "lint", "--format", "json", ".")
	if ref.code != ExitOK && ref.code != ExitFindings {
		t.Fatalf("lint of the sites: exit %d\n%s", ref.code, ref.stderr)
	}
	want := decodeReport(t, ref.stdout)

	if r := mainIn(t, repo, "render", ".", "-o", "rendered"); r.code != ExitOK {
		t.Fatalf("render: exit %d\n%s", r.code, r.stderr)
	}
	// the kustomize function configs (the example's own site stays out:
	// it would be a fourth site)
	for _, f := range []string{"kustomization.yaml", "siterender.yaml", "sitelint.yaml"} {
		data, err := os.ReadFile(filepath.Join(abs, "kustomize", f))
		if err != nil {
			t.Fatal(err)
		}
		write(t, repo, map[string]string{"kustomize/" + f: string(data)})
	}
	schema := mainIn(t, repo, "schema")
	write(t, repo, map[string]string{
		"siteforge.cue":                schema.stdout, // siteforge schema > siteforge.cue, for cue vet
		"schema/siteforge.cue":         schema.stdout,
		"siterender.yaml":              "apiVersion: siteforge.dev/v1alpha1\nkind: SiteRender\nmetadata:\n  name: r\nspec:\n  paths: [sites/store-0001]\n",
		"charts/app/Chart.yaml":        "apiVersion: v2\nname: app\nversion: 0.1.0\n",
		"charts/app/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n{{- range .Values.x }}\n  a: b\n{{- end }}\n",
		"charts/app/values.yaml":       "x: [1]\n",
		"argocd/applicationset.yaml":   "apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: stores\nspec:\n  template:\n    metadata:\n      name: '{{path.basename}}'\n",
	})

	for _, format := range []string{"json", "text"} {
		r := mainIn(t, repo, "lint", "--format", format, ".")
		if r.code != ExitOK && r.code != ExitFindings {
			t.Fatalf("lint --format %s .: exit %d\n%s%s", format, r.code, r.stdout, r.stderr)
		}
		if format == "text" {
			continue
		}
		got := decodeReport(t, r.stdout)
		seen := map[string]bool{}
		var rest []string
		for _, f := range got.Findings {
			if strings.HasPrefix(f.File, "rendered/") {
				t.Errorf("finding on a rendered copy of a linted site: %+v", f)
			}
			if f.Rule == "MIR004" || f.Rule == "EGR004" || f.Rule == "ING003" {
				t.Errorf("cross-object finding: %+v", f)
			}
			key := f.Rule + " " + f.Message
			if seen[key] {
				t.Errorf("duplicate finding: %+v", f)
			}
			seen[key] = true
			switch {
			case f.Rule == "INP003" && f.File == "charts/app/Chart.yaml":
				// the Helm chart, said once
			default:
				rest = append(rest, f.Rule+" "+f.File+" "+f.Message)
			}
		}
		var ref []string
		for _, f := range want.Findings {
			ref = append(ref, f.Rule+" "+f.File+" "+f.Message)
		}
		if strings.Join(rest, "\n") != strings.Join(ref, "\n") {
			t.Errorf("lint . finds\n  %s\nthe sites alone\n  %s", strings.Join(rest, "\n  "), strings.Join(ref, "\n  "))
		}
		if !seen["INP003 Helm chart app: its templates are not linted (lint the output of helm template)"] {
			t.Errorf("the Helm chart is not reported: %v", got.Findings)
		}
	}

	// The rendered output alone: each site folder is its own cluster, so
	// the two policies do not conflict either. The fleet is installed from
	// the hub: no install-config, so no installer-made ImageDigestMirrorSet
	// to conflict with the day-2 mirror sets.
	r := mainIn(t, repo, "lint", "--format", "json", "rendered")
	for _, f := range decodeReport(t, r.stdout).Findings {
		if f.Severity == "error" {
			t.Errorf("lint rendered: %+v", f)
		}
	}
	if r.code != ExitOK {
		t.Errorf("lint rendered: exit %d", r.code)
	}
}

// TestLintBrokenFileInEveryFormat: a broken YAML file next to real
// problems: json and sarif hold both the parse error and the other
// findings, github annotates the broken file, text lists both; exit 1.
func TestLintBrokenFileInEveryFormat(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"m/broken.yaml":  "apiVersion: operator.openshift.io/v1alpha1\nkind: ImageContentSourcePolicy\nmetadata:\n  name: ubi8repo\n~\n",
		"m/ic.yaml":      "apiVersion: operator.openshift.io/v1\nkind: IngressController\nmetadata:\n  name: edge\n  namespace: openshift-ingress-operator\nspec:\n  domain: Apps_Edge.example.com\n",
		"m/default.yaml": "apiVersion: operator.openshift.io/v1\nkind: IngressController\nmetadata:\n  name: default\n  namespace: openshift-ingress-operator\nspec: {}\n",
		"m/shard.yaml":   "apiVersion: operator.openshift.io/v1\nkind: IngressController\nmetadata:\n  name: external\n  namespace: openshift-ingress-operator\nspec:\n  domain: apps-ext.example.com\n  routeSelector:\n    matchLabels:\n      router: external\n",
	})
	for _, tc := range []struct {
		format string
		want   []string
	}{
		{"json", []string{`"rule": "INP001"`, `"file": "m/broken.yaml"`, `"line": 5`, `"rule": "ING002"`, `"rule": "ING004"`}},
		{"sarif", []string{`"ruleId": "INP001"`, `"uri": "m/broken.yaml"`, `"startLine": 5`, `"ruleId": "ING002"`, `"ruleId": "ING004"`}},
		{"github", []string{"::error file=m/broken.yaml,line=5,col=1,", "title=INP001 unparsable-file::syntax error", "title=ING002 ", "::warning file=m/default.yaml,"}},
		{"text", []string{"m/broken.yaml:5:1: error: syntax error", "[INP001]", "[ING002]", "[ING004]"}},
	} {
		r := mainIn(t, dir, "lint", "--format", tc.format, "m")
		if r.code != ExitFindings {
			t.Errorf("--format %s: exit %d, want 1\n%s", tc.format, r.code, r.stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("--format %s: no %q in\n%.3000s", tc.format, w, r.stdout)
			}
		}
	}
}

// TestLintExclude: --exclude and .siteforgeignore keep a path out: the
// broken file is not read, the other findings stay.
func TestLintExclude(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"m/broken.yaml":      "a: [\n",
		"m/tmpl/x.yaml":      "b: [\n",
		"m/ic.yaml":          "apiVersion: operator.openshift.io/v1\nkind: IngressController\nmetadata:\n  name: edge\n  namespace: openshift-ingress-operator\nspec:\n  domain: Apps_Edge.example.com\n",
		"m/.siteforgeignore": "# templates rendered elsewhere\ntmpl/\n",
	})
	r := mainIn(t, dir, "lint", "--exclude", "broken.yaml", "m")
	if strings.Contains(r.stdout, "[INP001]") || !strings.Contains(r.stdout, "[ING002]") {
		t.Errorf("--exclude broken.yaml: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = mainIn(t, dir, "lint", "m")
	if !strings.Contains(r.stdout, "m/broken.yaml:1:1: error: syntax error") || strings.Contains(r.stdout, "tmpl/x.yaml") {
		t.Errorf("without --exclude: the broken file, not the ignored one, is a finding\n%s%s", r.stdout, r.stderr)
	}
}

// TestLintInputFindings: a site that does not load (INP002) and a render
// warning (under its rule's ID, MIR021) are findings of every format, next to
// the other sites' and files' findings; --fail-on warning fails on a render
// warning, the example's own suppression silences it, and a suppression of
// the retired INP005 says what replaced it; a path
// that does not exist is INP006 in the report, and exit 2 (the run asked
// for cannot be done); a FIFO is INP006 and never opened for reading.
func TestLintInputFindings(t *testing.T) {
	abs, _ := filepath.Abs(examplesDir)
	dir := t.TempDir()
	copyTree(t, filepath.Join(abs, "disconnected-quay-cache"), filepath.Join(dir, "warns"))
	// the example suppresses MIR021 (it runs the post-install step): lint
	// it without that suppression first
	shipped, err := os.ReadFile(filepath.Join(dir, "warns", "site.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	suppression := "\nlint:\n  suppress:\n  - rule: MIR021\n"
	unsuppressed, _, found := strings.Cut(string(shipped), suppression)
	if !found {
		t.Fatalf("examples/disconnected-quay-cache/site.yaml no longer suppresses MIR021 as %q: update the test", suppression)
	}
	write(t, dir, map[string]string{"warns/site.yaml": unsuppressed + "\n"})
	write(t, dir, map[string]string{
		"bad/site.yaml": hardSite + "bogus: 1\n",
		"m/cm.yaml":     "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n",
	})
	if err := unix.Mkfifo(filepath.Join(dir, "m", "pipe.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mainIn(t, dir, "lint", "--format", "json", "bad", "warns", "m")
	if r.code != ExitFindings {
		t.Fatalf("exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	rules := map[string]string{}
	for _, f := range decodeReport(t, r.stdout).Findings {
		rules[f.Rule] = f.File + ":" + f.Message
	}
	for rule, want := range map[string]string{
		"INP002": `bad/site.yaml:field "bogus" is not allowed`,
		"MIR021": "warns/site.yaml:mirroring.quayCache.policy: after the agent installation",
		"INP006": "m/pipe.yaml:cannot read: not a regular file: it is a named pipe (FIFO)",
		"MIR018": "warns/site.yaml:",
	} {
		if !strings.HasPrefix(rules[rule], want) {
			t.Errorf("%s: got %q, want %q...", rule, rules[rule], want)
		}
	}

	// a render warning fails --fail-on warning, and the site's own
	// suppression (with a reason) silences it
	r = mainIn(t, dir, "lint", "--fail-on", "warning", "warns")
	if r.code != ExitFindings || !regexp.MustCompile(`(?m)^warns/site.yaml:\d+:\d+: warning: .*\[MIR021\]$`).MatchString(r.stdout) {
		t.Errorf("--fail-on warning: exit %d, want 1 with MIR021\n%s%s", r.code, r.stdout, r.stderr)
	}
	write(t, dir, map[string]string{"warns/site.yaml": string(shipped)})
	r = mainIn(t, dir, "lint", "--fail-on", "warning", "warns")
	if r.code != ExitOK || strings.Contains(r.stdout, "[MIR021]") || !strings.Contains(r.stdout, "1 suppressed") {
		t.Errorf("suppressed MIR021 still reported (exit %d)\n%s%s", r.code, r.stdout, r.stderr)
	}
	// INP005, the one rule all render warnings had before, is retired: a
	// suppression of it says so
	write(t, dir, map[string]string{"warns/site.yaml": unsuppressed + "\nlint:\n  suppress:\n  - {rule: INP005, reason: \"image-digest-mirror is deleted after the installation\"}\n"})
	r = mainIn(t, dir, "lint", "warns")
	if !regexp.MustCompile(`(?m)warning: suppression of INP005 \(render-warning\), a retired rule: .*RND.* \[LNT003\]$`).MatchString(r.stdout) || !strings.Contains(r.stdout, "[MIR021]") {
		t.Errorf("a suppression of INP005: want LNT003 naming the RND IDs, and MIR021 still reported\n%s%s", r.stdout, r.stderr)
	}
	// RND003, the render warning's ID before it was MIR021 in render
	// and lint alike, is retired too
	write(t, dir, map[string]string{"warns/site.yaml": unsuppressed + "\nlint:\n  suppress:\n  - {rule: RND003, reason: \"image-digest-mirror is deleted after the installation\"}\n"})
	r = mainIn(t, dir, "lint", "warns")
	if !regexp.MustCompile(`(?m)warning: suppression of RND003 \(installer-mirrors-conflict-after-install\), a retired rule: .*suppress MIR021 \[LNT003\]$`).MatchString(r.stdout) || !strings.Contains(r.stdout, "[MIR021]") {
		t.Errorf("a suppression of RND003: want LNT003 naming MIR021, and MIR021 still reported\n%s%s", r.stdout, r.stderr)
	}

	// a PATH that does not exist: exit 2, and the report still says why
	for _, format := range []string{"json", "sarif", "github"} {
		r = mainIn(t, dir, "lint", "--format", format, "nosuch", "m")
		if r.code != ExitFailure || !strings.Contains(r.stdout, "INP006") || !strings.Contains(r.stdout, "nosuch") {
			t.Errorf("--format %s nosuch: exit %d, want 2 and an INP006 result\n%s%s", format, r.code, r.stdout, r.stderr)
		}
	}
}

// TestLintSiteWithOtherFiles: `siteforge lint SITE extra.yaml` lints the
// site and the other files as one cluster: an ImageDigestMirrorSet giving
// registry.redhat.io another policy than the site's mirrors is a conflict
// MCO refuses (MIR004, naming the other object). Before, the file was
// linted apart from the site and nothing was found. With two sites, the
// other files are a cluster of their own (each site has its own).
func TestLintSiteWithOtherFiles(t *testing.T) {
	abs, _ := filepath.Abs(examplesDir)
	dir := t.TempDir()
	copyTree(t, filepath.Join(abs, "disconnected-quay-cache"), filepath.Join(dir, "lab"))
	copyTree(t, filepath.Join(abs, "remote-workers"), filepath.Join(dir, "rw"))
	write(t, dir, map[string]string{"extra.yaml": "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: extra\nspec:\n  imageDigestMirrors:\n" +
		"  - source: registry.redhat.io\n    mirrors: [other.example.com/rh]\n    mirrorSourcePolicy: AllowContactingSource\n"})
	mir004 := func(args ...string) bool {
		r := mainIn(t, dir, append([]string{"lint", "--format", "json"}, args...)...)
		for _, f := range decodeReport(t, r.stdout).Findings {
			if f.Rule == "MIR004" && strings.Contains(f.Message, "ImageDigestMirrorSet extra") {
				return true
			}
		}
		return false
	}
	if !mir004("lab", "extra.yaml") {
		t.Error("lint lab extra.yaml: no MIR004 between the site's mirrors and extra.yaml")
	}
	if mir004("lab") {
		t.Error("lint lab: MIR004 without extra.yaml")
	}
	if mir004("lab", "rw", "extra.yaml") {
		t.Error("lint lab rw extra.yaml: with two sites, extra.yaml is not either site's cluster")
	}
	// an image.config of the cluster next to the one the site renders: a
	// duplicate, pointed at the site's own line (not the rendered file)
	write(t, dir, map[string]string{"image.yaml": "apiVersion: config.openshift.io/v1\nkind: Image\nmetadata:\n  name: cluster\nspec:\n  registrySources:\n    insecureRegistries: [foo.example.com]\n"})
	r := mainIn(t, dir, "lint", "--format", "json", "lab", "image.yaml")
	found := false
	for _, f := range decodeReport(t, r.stdout).Findings {
		if f.Rule == "INP004" && f.File == "image.yaml" && regexp.MustCompile(`differently from lab/site\.yaml:\d+:\d+ `).MatchString(f.Message) {
			found = true
		}
	}
	if !found {
		t.Errorf("lint lab image.yaml: no INP004 pointing at the site's line\n%s", r.stdout)
	}
}

// TestFleetSitesFolder: the documented commands of the fleet layout take
// the fleet's sites/ folder (`render -o rendered sites`, `render --check -o
// rendered sites`, as .pre-commit-hooks.yaml and the GitHub workflow run
// them) and a site folder of it: both with the fleet's defaults, rendering
// exactly what `render .` at the fleet root renders. Before, `sites` was
// "no site files in directory".
func TestFleetSitesFolder(t *testing.T) {
	abs, _ := filepath.Abs(examplesDir)
	dir := t.TempDir()
	copyTree(t, filepath.Join(abs, "fleet"), dir)
	if r := mainIn(t, dir, "render", "-o", "rendered", "sites"); r.code != ExitOK {
		t.Fatalf("render -o rendered sites: exit %d\n%s", r.code, r.stderr)
	}
	if r := mainIn(t, dir, "render", "--check", "-o", "rendered", "sites"); r.code != ExitOK {
		t.Errorf("render --check -o rendered sites: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := mainIn(t, dir, "render", "--check", "-o", "rendered", "."); r.code != ExitOK {
		t.Errorf("render --check -o rendered . after rendering sites: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := mainIn(t, dir, "vet", "sites/store-0002"); r.code != ExitOK || !strings.Contains(r.stdout, "(site store-0002)") {
		t.Errorf("vet sites/store-0002: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := mainIn(t, filepath.Join(dir, "sites", "store-0003"), "vet", "."); r.code != ExitOK {
		t.Errorf("vet . in a site folder: exit %d\n%s", r.code, r.stderr)
	}
}
