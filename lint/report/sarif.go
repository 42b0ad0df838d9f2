package report

import (
	"encoding/json"
	"io"
	"path/filepath"

	"github.com/siteforge/siteforge/lint"
)

// SARIF 2.1.0, as GitHub code scanning accepts it
// (docs.github.com "SARIF support for code scanning").
const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
)

// ToolName and ToolVersion identify siteforge in SARIF runs; set ToolVersion
// from the build.
var (
	ToolName    = "siteforge"
	ToolVersion = "devel"
	ToolURI     = "https://github.com/siteforge/siteforge"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	InformationURI  string      `json:"informationUri,omitempty"`
	Rules           []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string        `json:"id"`
	Name                 string        `json:"name"`
	ShortDescription     sarifText     `json:"shortDescription"`
	FullDescription      sarifText     `json:"fullDescription"`
	Help                 sarifHelp     `json:"help"`
	DefaultConfiguration sarifRuleConf `json:"defaultConfiguration"`
}

type sarifRuleConf struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

func sarifLevel(s lint.Severity) string { return sarifLevels[s] }

// sarifLevels are SARIF's result levels (SARIF 2.1.0 section 3.27.10).
var sarifLevels = map[lint.Severity]string{lint.Error: "error", lint.Warning: "warning", lint.Info: "note"}

// SARIF writes a SARIF 2.1.0 log with every rule (help text included) and
// one result per finding. Paths are relative as given (repo-relative when
// siteforge runs at the repository root); lines are never 0.
func SARIF(w io.Writer, res lint.Result) error {
	rules := lint.Rules()
	index := map[string]int{}
	driver := sarifDriver{Name: ToolName, SemanticVersion: semver(ToolVersion), InformationURI: ToolURI, Rules: []sarifRule{}}
	for i, r := range rules {
		index[r.ID] = i
		driver.Rules = append(driver.Rules, sarifRule{
			ID: r.ID, Name: r.Name,
			ShortDescription:     sarifText{Text: r.Summary},
			FullDescription:      sarifText{Text: r.Rationale},
			Help:                 sarifHelp{Text: r.Rationale + "\n\nFix: " + r.Fix, Markdown: "**" + r.Summary + "**\n\n" + r.Rationale + "\n\n**Fix:** " + r.Fix},
			DefaultConfiguration: sarifRuleConf{Level: sarifLevel(r.Severity)},
		})
	}
	run := sarifRun{Tool: sarifTool{Driver: driver}, Results: []sarifResult{}}
	for _, f := range res.Findings {
		l, c, el, ec := span(f)
		run.Results = append(run.Results, sarifResult{
			RuleID: f.Rule, RuleIndex: index[f.Rule], Level: sarifLevel(f.Severity), Message: sarifText{Text: f.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: filepath.ToSlash(f.Pos.File)},
				Region:           sarifRegion{StartLine: l, StartColumn: c, EndLine: el, EndColumn: ec},
			}}},
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

// semver drops a leading "v"; "devel" is not a semantic version.
func semver(v string) string {
	if len(v) > 1 && v[0] == 'v' {
		return v[1:]
	}
	if v == "devel" {
		return ""
	}
	return v
}
