package report

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/lint"
	_ "github.com/siteforge/siteforge/lint/rules"
)

var sample = lint.Result{
	Findings: []lint.Finding{
		{Rule: "MIR001", Name: "tag-pull-under-digest-only-mirrors", Severity: lint.Error,
			Message: "100% broken: a,b\nnext line", Pos: diag.Position{File: "gitops/cs.yaml", Line: 8, Col: 10},
			Resource: &lint.ResourceRef{APIVersion: "operators.coreos.com/v1alpha1", Kind: "CatalogSource", Namespace: "openshift-marketplace", Name: "redhat-operators"}},
		{Rule: "MTU001", Name: "cluster-mtu-exceeds-path", Severity: lint.Warning,
			Message: "no position known", Pos: diag.Position{File: "site.cue"}, Site: "lab"},
	},
	Suppressed: 2,
}

func TestText(t *testing.T) {
	var b bytes.Buffer
	if err := Text(&b, sample); err != nil {
		t.Fatal(err)
	}
	// A newline in a message is escaped: one finding, one line.
	want := "gitops/cs.yaml:8:10: error: 100% broken: a,b\\x0anext line [MIR001]\nsite.cue: warning: no position known [MTU001]\n1 errors, 1 warnings, 0 infos, 2 suppressed\n"
	if b.String() != want {
		t.Errorf("text:\n%s\nwant\n%s", b.String(), want)
	}
}

func TestJSON(t *testing.T) {
	var b bytes.Buffer
	if err := JSON(&b, sample); err != nil {
		t.Fatal(err)
	}
	var got struct {
		SchemaVersion string           `json:"schemaVersion"`
		Findings      []map[string]any `json:"findings"`
		Summary       map[string]int   `json:"summary"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.SchemaVersion != "1" || len(got.Findings) != 2 || got.Summary["errors"] != 1 || got.Summary["warnings"] != 1 || got.Summary["suppressed"] != 2 {
		t.Errorf("json: %+v", got)
	}
	f := got.Findings[0]
	for _, k := range []string{"rule", "name", "severity", "message", "file", "line", "column", "endLine", "endColumn", "resource"} {
		if _, ok := f[k]; !ok {
			t.Errorf("finding lacks %q: %v", k, f)
		}
	}
	if f["line"].(float64) != 8 || f["column"].(float64) != 10 {
		t.Errorf("position: %v", f)
	}
	// Never line 0.
	if got.Findings[1]["line"].(float64) != 1 || got.Findings[1]["site"] != "lab" {
		t.Errorf("second finding: %v", got.Findings[1])
	}
}

func TestGitHubEscapes(t *testing.T) {
	var b bytes.Buffer
	if err := GitHub(&b, sample); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 2 annotations and a summary, got %q", b.String())
	}
	want := "::error file=gitops/cs.yaml,line=8,col=10,endLine=8,endColumn=10,title=MIR001 tag-pull-under-digest-only-mirrors::100%25 broken: a,b%0Anext line"
	if lines[0] != want {
		t.Errorf("annotation:\n%s\nwant\n%s", lines[0], want)
	}
	if !strings.HasPrefix(lines[1], "::warning file=site.cue,line=1,col=1,") {
		t.Errorf("warning annotation: %s", lines[1])
	}
	if escapeProperty("a:b,c%\n") != "a%3Ab%2Cc%25%0A" {
		t.Errorf("property escaping: %s", escapeProperty("a:b,c%\n"))
	}
	if lines[2] != "siteforge lint: 1 errors, 1 warnings, 0 infos, 2 suppressed" {
		t.Errorf("summary: %s", lines[2])
	}
}

// TestWorkflowCommandInjection: a file name or message holding a newline
// and a forged "::error" command, or terminal escapes, never starts a line
// of its own, in any text format (before: the github format escaped
// messages only, and input diagnostics nothing).
func TestWorkflowCommandInjection(t *testing.T) {
	evil := lint.Result{Findings: []lint.Finding{{Rule: "MIR001", Name: "x", Severity: lint.Error,
		Message: "m\n::error file=a.yaml::forged\x1b[31m",
		Pos:     diag.Position{File: "x\n::error file=b.yaml,line=1::forged\x1b]0;title\x07.yaml", Line: 1, Col: 1}}}}
	for name, f := range map[string]Format{"text": Text, "github": GitHub} {
		var b bytes.Buffer
		if err := f(&b, evil); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(b.String(), "\n") {
			if strings.Contains(line, "forged") && strings.HasPrefix(line, "::") && name == "text" {
				t.Errorf("%s: forged command line %q", name, line)
			}
			if strings.HasPrefix(line, "::error file=a.yaml") || strings.HasPrefix(line, "::error file=b.yaml") {
				t.Errorf("%s: forged command line %q", name, line)
			}
		}
		if strings.ContainsAny(b.String(), "\x1b\x07") {
			t.Errorf("%s: control characters pass through: %q", name, b.String())
		}
	}
	// a file name starting a line with "::" gets "./"
	var b bytes.Buffer
	_ = Text(&b, lint.Result{Findings: []lint.Finding{{Rule: "MIR001", Severity: lint.Error, Message: "m",
		Pos: diag.Position{File: "::error file=c.yaml::x.yaml", Line: 1, Col: 1}}}})
	if strings.HasPrefix(b.String(), "::") {
		t.Errorf("line starts with a workflow command: %q", b.String())
	}
}

// TestSARIF checks the SARIF 2.1.0 structure GitHub code scanning requires
// (docs.github.com "SARIF support for code scanning": version, runs,
// tool.driver.name and rules with help, results with ruleId, message.text,
// physicalLocation.artifactLocation.uri and region.startLine >= 1).
func TestSARIF(t *testing.T) {
	var b bytes.Buffer
	if err := SARIF(&b, sample); err != nil {
		t.Fatal(err)
	}
	var log map[string]any
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log["version"] != "2.1.0" || !strings.Contains(log["$schema"].(string), "sarif-2.1.0") {
		t.Errorf("version/schema: %v %v", log["version"], log["$schema"])
	}
	runs := log["runs"].([]any)
	if len(runs) != 1 {
		t.Fatalf("runs: %d", len(runs))
	}
	run := runs[0].(map[string]any)
	driver := run["tool"].(map[string]any)["driver"].(map[string]any)
	if driver["name"] != "siteforge" {
		t.Errorf("driver name %v", driver["name"])
	}
	ruleIndex := map[string]int{}
	for i, r := range driver["rules"].([]any) {
		rm := r.(map[string]any)
		id := rm["id"].(string)
		ruleIndex[id] = i
		for _, k := range []string{"name", "shortDescription", "fullDescription", "help", "defaultConfiguration"} {
			if rm[k] == nil {
				t.Errorf("rule %s lacks %s", id, k)
			}
		}
		if rm["help"].(map[string]any)["text"] == "" {
			t.Errorf("rule %s has empty help", id)
		}
		lvl := rm["defaultConfiguration"].(map[string]any)["level"]
		if lvl != "error" && lvl != "warning" && lvl != "note" {
			t.Errorf("rule %s level %v", id, lvl)
		}
	}
	results := run["results"].([]any)
	if len(results) != 2 {
		t.Fatalf("results: %d", len(results))
	}
	for _, r := range results {
		rm := r.(map[string]any)
		id := rm["ruleId"].(string)
		idx, ok := ruleIndex[id]
		if !ok || int(rm["ruleIndex"].(float64)) != idx {
			t.Errorf("result %s: ruleIndex %v, want %d", id, rm["ruleIndex"], idx)
		}
		if rm["message"].(map[string]any)["text"] == "" {
			t.Errorf("result %s has no message", id)
		}
		loc := rm["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
		uri := loc["artifactLocation"].(map[string]any)["uri"].(string)
		if uri == "" || strings.HasPrefix(uri, "/") || strings.Contains(uri, `\`) {
			t.Errorf("uri %q is not repo-relative", uri)
		}
		region := loc["region"].(map[string]any)
		if region["startLine"].(float64) < 1 || region["startColumn"].(float64) < 1 || region["endLine"].(float64) < region["startLine"].(float64) {
			t.Errorf("region %v", region)
		}
	}
}

// TestSARIFURIsAndRegions: artifact URIs are relative URI references,
// percent-encoded (SARIF 2.1.0 3.10.3, RFC 3986: spaces, '#', '%' and
// non-ASCII bytes are never literal); an absolute path inside the working
// directory is made relative, one outside it is a file: URI; every region
// covers at least one character (endColumn is exclusive, 3.30.8).
func TestSARIFURIsAndRegions(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"my manifests/cat#1 100%.yaml":          "my%20manifests/cat%231%20100%25.yaml",
		"sites/ünï/site.yaml":                   "sites/%C3%BCn%C3%AF/site.yaml",
		filepath.Join(wd, "inside", "a b.yaml"): "inside/a%20b.yaml",
		"/elsewhere/x:y.yaml":                   "file:///elsewhere/x%3Ay.yaml",
		"a:b/c.yaml":                            "a%3Ab/c.yaml",
	}
	var res lint.Result
	for f := range files {
		res.Findings = append(res.Findings, lint.Finding{Rule: "INP001", Name: "unparsable-file", Severity: lint.Error, Message: "m", Pos: diag.Position{File: f, Line: 3, Col: 7}})
	}
	var b bytes.Buffer
	if err := SARIF(&b, res); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range log.Runs[0].Results {
		pl := r.Locations[0].PhysicalLocation
		got[pl.ArtifactLocation.URI] = true
		if _, err := url.Parse(pl.ArtifactLocation.URI); err != nil {
			t.Errorf("%q is no URI: %v", pl.ArtifactLocation.URI, err)
		}
		if rg := pl.Region; rg.EndLine == rg.StartLine && rg.EndColumn <= rg.StartColumn {
			t.Errorf("%s: empty region %+v", pl.ArtifactLocation.URI, rg)
		}
	}
	for f, want := range files {
		if !got[want] {
			t.Errorf("%q: no URI %q in %v", f, want, got)
		}
	}
}

// TestSARIFDriverVersionNumeric: a build's version as Go stamps it
// (v0.0.0-<time>-<commit> from a checkout, v1.2.3 from a tag) is written
// without the "v": the SARIF multitool's SARIF2005 (ProvideToolProperties)
// warns on a tool version that does not start with an integer, and the
// e2e multitool test fails on any warning.
func TestSARIFDriverVersionNumeric(t *testing.T) {
	old := ToolVersion
	defer func() { ToolVersion = old }()
	for in, want := range map[string]string{
		"v0.0.0-20261206142821-92c7b8f5ce3e": "0.0.0-20261206142821-92c7b8f5ce3e",
		"v1.2.3":                             "1.2.3",
		"0.0.0-devel":                        "0.0.0-devel",
	} {
		ToolVersion = in
		var b bytes.Buffer
		if err := SARIF(&b, sample); err != nil {
			t.Fatal(err)
		}
		var log struct {
			Runs []struct {
				Tool struct {
					Driver struct {
						Version         string `json:"version"`
						SemanticVersion string `json:"semanticVersion"`
					} `json:"driver"`
				} `json:"tool"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(b.Bytes(), &log); err != nil {
			t.Fatal(err)
		}
		d := log.Runs[0].Tool.Driver
		if d.Version != want || d.SemanticVersion != want {
			t.Errorf("ToolVersion %q: driver version %q, semanticVersion %q; want %q", in, d.Version, d.SemanticVersion, want)
		}
	}
}
