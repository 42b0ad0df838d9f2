package e2e

import (
	"encoding/json"
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
