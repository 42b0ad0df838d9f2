package report

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

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
	ToolVersion = "0.0.0-devel"
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
	Name string `json:"name"`
	// Version is the build's version without Go's "v" (v0.3.1 -> 0.3.1,
	// v0.0.0-20261206142821-92c7b8f5ce3e for a checkout build -> 0.0.0-...):
	// the SARIF multitool's rule SARIF2005 (ProvideToolProperties) asks
	// for a version that starts with an integer, so results compare across
	// runs.
	Version         string      `json:"version,omitempty"`
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
// one result per finding. Paths are relative URI references, percent-encoded
// (SARIF 2.1.0 3.10, RFC 3986), relative to the working directory
// (repo-relative when siteforge runs at the repository root, as GitHub code
// scanning expects); a file outside it is an absolute file: URI. Lines are
// never 0, and a region is never empty.
func SARIF(w io.Writer, res lint.Result) error {
	rules := lint.Rules()
	index := map[string]int{}
	driver := sarifDriver{Name: ToolName, Version: semver(ToolVersion), SemanticVersion: semver(ToolVersion), InformationURI: ToolURI, Rules: []sarifRule{}}
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
		if el == l && ec <= c {
			ec = c + 1 // SARIF's endColumn is exclusive: a region is at least one character (3.30.8)
		}
		run.Results = append(run.Results, sarifResult{
			RuleID: f.Rule, RuleIndex: index[f.Rule], Level: sarifLevel(f.Severity), Message: sarifText{Text: f.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: sarifURI(f.Pos.File)},
				Region:           sarifRegion{StartLine: l, StartColumn: c, EndLine: el, EndColumn: ec},
			}}},
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

// semver drops a leading "v" (Go module versions are semantic versions with
// it).
func semver(v string) string {
	if len(v) > 1 && v[0] == 'v' {
		return v[1:]
	}
	return v
}

// sarifURI is the URI reference of a file: relative to the working
// directory when it is inside it, else an absolute file: URI; each path
// segment percent-encoded (everything but RFC 3986 unreserved characters).
func sarifURI(file string) string {
	p := file
	if filepath.IsAbs(p) {
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				p = rel
			}
		}
	}
	segs := strings.Split(filepath.ToSlash(p), "/")
	for i, seg := range segs {
		segs[i] = percentEncode(seg)
	}
	uri := strings.Join(segs, "/")
	if filepath.IsAbs(p) {
		return "file://" + uri
	}
	return uri
}

// percentEncode escapes every byte that is not an RFC 3986 unreserved
// character (a relative reference's first segment may hold no ':', and '#',
// '?', '%' and spaces are never literal).
func percentEncode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
