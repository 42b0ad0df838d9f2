package e2e

import (
	"encoding/json"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

type workflowStep struct {
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	With map[string]string `yaml:"with"`
}

// TestGitHubWorkflow runs the lint steps of examples/github/siteforge.yml
// with bash, as the runner does, in a repository with a MIR001 finding: the
// SARIF step writes code scanning input and lets the upload step run, the
// annotations step fails the job with ::error lines.
func TestGitHubWorkflow(t *testing.T) {
	var wf struct {
		Jobs map[string]struct {
			Steps []workflowStep `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(readFile(t, filepath.Join(root, "examples", "github", "siteforge.yml"))), &wf); err != nil {
		t.Fatal(err)
	}
	var sarifStep, annotStep, upload *workflowStep
	for _, job := range wf.Jobs {
		for i := range job.Steps {
			s := &job.Steps[i]
			switch {
			case strings.Contains(s.Run, "--format sarif"):
				sarifStep = s
			case strings.Contains(s.Run, "--format github"):
				annotStep = s
			case strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@"):
				upload = s
			}
		}
	}
	if sarifStep == nil || annotStep == nil || upload == nil {
		t.Fatalf("the workflow needs a --format sarif step, an upload-sarif step and a --format github step")
	}
	if file := upload.With["sarif_file"]; !strings.Contains(sarifStep.Run, "> "+file) {
		t.Errorf("upload-sarif reads %q, which the SARIF step does not write: %s", file, sarifStep.Run)
	}

	repo := t.TempDir()
	writeFiles(t, repo, map[string]string{
		"lab/site.yaml":          readFile(t, filepath.Join(root, "examples", "disconnected-quay-cache", "site.yaml")),
		"manifests/idms.yaml":    strings.ReplaceAll(idmsNeverContact, "registry.redhat.io", "registry.connect.redhat.com"),
		"manifests/catalog.yaml": strings.ReplaceAll(catalogByTag, "registry.redhat.io", "registry.connect.redhat.com"),
	})
	// GitHub runs `run:` with bash -e {0}.
	res := run(t, repo, nil, "bash", "-e", "-c", sarifStep.Run)
	if res.code != 0 {
		t.Fatalf("the SARIF step failed on findings (it must let the upload run): %v", res)
	}
	var sarif struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(repo, upload.With["sarif_file"]))), &sarif); err != nil {
		t.Fatalf("%s is not JSON: %v", upload.With["sarif_file"], err)
	}
	var found bool
	for _, r := range sarif.Runs {
		for _, res := range r.Results {
			if res.RuleID != "MIR001" || len(res.Locations) == 0 {
				continue
			}
			l := res.Locations[0].PhysicalLocation
			found = l.ArtifactLocation.URI == "manifests/catalog.yaml" && l.Region.StartLine == 8 && l.Region.StartColumn == 10 && res.Level == "error"
		}
	}
	if sarif.Version != "2.1.0" || !found {
		t.Errorf("SARIF lacks the MIR001 error at manifests/catalog.yaml:8:10:\n%s", readFile(t, filepath.Join(repo, upload.With["sarif_file"])))
	}

	res = run(t, repo, nil, "bash", "-e", "-c", annotStep.Run)
	if res.code != 1 || !strings.Contains(res.stdout, "::error file=manifests/catalog.yaml,line=8,col=10,") {
		t.Errorf("the annotations step must fail with an ::error annotation at manifests/catalog.yaml:8:10: %v", res)
	}
}

// TestGitHubWorkflowFleetSteps runs the workflow's render check and impact
// steps with bash, as the runner does, in a repository with the fleet layout
// the workflow documents (defaults at the root, sites/<name>, rendered/):
// the render check passes on a fresh render and fails on a hand edit; the
// impact step compares against the base branch and writes the job summary.
func TestGitHubWorkflowFleetSteps(t *testing.T) {
	var wf struct {
		Jobs map[string]struct {
			Steps []workflowStep `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(readFile(t, filepath.Join(root, "examples", "github", "siteforge.yml"))), &wf); err != nil {
		t.Fatal(err)
	}
	var check, impact string
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			switch {
			case strings.Contains(s.Run, "siteforge render --check"):
				check = s.Run
			case strings.Contains(s.Run, "siteforge impact"):
				impact = s.Run
			}
		}
	}
	if check == "" || impact == "" {
		t.Fatal("the workflow needs a render --check step and an impact step")
	}
	repo := t.TempDir()
	copyTree(t, filepath.Join(root, "examples", "fleet"), repo, func(string, fs.DirEntry) bool { return false })
	if res := siteforge(t, repo, "render", "-o", "rendered", "sites"); res.code != 0 {
		t.Fatalf("render: %v", res)
	}
	git(t, repo, "init", "-q", "-b", "main")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "--no-gpg-sign", "-m", "fleet")
	// the pull request's base branch, as actions/checkout with fetch-depth 0 leaves it
	git(t, repo, "update-ref", "refs/remotes/origin/main", "HEAD")

	if res := run(t, repo, nil, "bash", "-e", "-c", check); res.code != 0 {
		t.Fatalf("the render check step fails on a fresh render: %v", res)
	}
	// a change in the pull request: store-0001 gets two default routers
	site := filepath.Join(repo, "sites", "store-0001", "site.cue")
	writeFiles(t, repo, map[string]string{"sites/store-0001/site.cue": readFile(t, site) + "\ningress: default: replicas: 2\n"})
	if res := run(t, repo, nil, "bash", "-e", "-c", check); res.code == 0 {
		t.Errorf("the render check step passes a site edited without rendering: %v", res)
	}
	if res := siteforge(t, repo, "render", "-o", "rendered", "sites"); res.code != 0 {
		t.Fatalf("render: %v", res)
	}
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "--no-gpg-sign", "-m", "store-0001: two routers")
	summary := filepath.Join(t.TempDir(), "summary.md")
	step := strings.ReplaceAll(impact, "${{ github.base_ref }}", "main")
	res := run(t, repo, []string{"GITHUB_STEP_SUMMARY=" + summary}, "bash", "-e", "-c", step)
	if res.code != 0 {
		t.Fatalf("the impact step: %v", res)
	}
	// The fleet is still to be installed: the report says no node is
	// disrupted; it is in the job summary and in the log.
	if got := readFile(t, summary); !strings.HasPrefix(got, "### siteforge impact") || !strings.Contains(got, "No node is drained") || got != res.stdout {
		t.Errorf("the impact step's job summary:\n%s\nlog:\n%s", got, res.stdout)
	}
}
