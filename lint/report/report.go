// Package report renders lint findings: one format per file behind one
// function type, all from the same finding model.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/lint"
)

// Format writes a lint result.
type Format func(w io.Writer, res lint.Result) error

// Formats by name (the --format flag).
var Formats = map[string]Format{
	"text":   Text,
	"json":   JSON,
	"sarif":  SARIF,
	"github": GitHub,
}

// Names lists the formats.
func Names() []string {
	var n []string
	for k := range Formats {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// Text writes GNU-style lines: file:line:col: severity: message [ID].
func Text(w io.Writer, res lint.Result) error {
	for _, f := range res.Findings {
		if _, err := fmt.Fprintf(w, "%s: %s: %s [%s]\n", diag.SafeLine(f.Pos.String()), f.Severity, diag.Clean(f.Message), f.Rule); err != nil {
			return err
		}
	}
	e, wn, i := res.Counts()
	_, err := fmt.Fprintf(w, "%d errors, %d warnings, %d infos, %d suppressed\n", e, wn, i, res.Suppressed)
	return err
}

type jsonFinding struct {
	Rule      string            `json:"rule"`
	Name      string            `json:"name"`
	Severity  string            `json:"severity"`
	Message   string            `json:"message"`
	File      string            `json:"file"`
	Line      int               `json:"line"`
	Column    int               `json:"column"`
	EndLine   int               `json:"endLine"`
	EndColumn int               `json:"endColumn"`
	Site      string            `json:"site,omitempty"`
	Resource  *lint.ResourceRef `json:"resource,omitempty"`
}

type jsonSummary struct {
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
	Infos      int `json:"infos"`
	Suppressed int `json:"suppressed"`
}

// JSONSchemaVersion is the version of the JSON output contract.
const JSONSchemaVersion = "1"

// JSON writes {"schemaVersion":"1","findings":[...],"summary":{...}}.
func JSON(w io.Writer, res lint.Result) error {
	out := struct {
		SchemaVersion string        `json:"schemaVersion"`
		Findings      []jsonFinding `json:"findings"`
		Summary       jsonSummary   `json:"summary"`
	}{SchemaVersion: JSONSchemaVersion, Findings: []jsonFinding{}}
	for _, f := range res.Findings {
		l, c, el, ec := span(f)
		out.Findings = append(out.Findings, jsonFinding{Rule: f.Rule, Name: f.Name, Severity: f.Severity.String(), Message: f.Message,
			File: filepath.ToSlash(f.Pos.File), Line: l, Column: c, EndLine: el, EndColumn: ec, Site: f.Site, Resource: f.Resource})
	}
	out.Summary.Errors, out.Summary.Warnings, out.Summary.Infos = res.Counts()
	out.Summary.Suppressed = res.Suppressed
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// span returns 1-based start and end; the end defaults to the start (never
// line 0: GitHub rejects it).
func span(f lint.Finding) (line, col, endLine, endCol int) {
	line, col = max(f.Pos.Line, 1), max(f.Pos.Col, 1)
	endLine, endCol = line, col
	if f.End.Line >= line {
		endLine, endCol = f.End.Line, max(f.End.Col, 1)
		if endLine == line && endCol < col {
			endCol = col
		}
	}
	return
}

// GitHub writes GitHub Actions workflow commands, one annotation per
// finding, and a summary line (GitHub shows only 10 annotations of each kind
// per step).
func GitHub(w io.Writer, res lint.Result) error {
	for _, f := range res.Findings {
		level := map[lint.Severity]string{lint.Error: "error", lint.Warning: "warning", lint.Info: "notice"}[f.Severity]
		l, c, el, ec := span(f)
		if _, err := fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
			level, escapeProperty(filepath.ToSlash(f.Pos.File)), l, c, el, ec,
			escapeProperty(f.Rule+" "+f.Name), escapeData(f.Message)); err != nil {
			return err
		}
	}
	e, wn, i := res.Counts()
	_, err := fmt.Fprintf(w, "siteforge lint: %d errors, %d warnings, %d infos, %d suppressed\n", e, wn, i, res.Suppressed)
	return err
}

// escapeData escapes a workflow command message as actions/toolkit
// (packages/core/src/command.ts escapeData) does; other control characters
// (ESC, ...) are then made visible, so they reach no terminal.
func escapeData(s string) string {
	return diag.Clean(strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s))
}

// escapeProperty escapes a workflow command property as actions/toolkit
// (command.ts escapeProperty) does, then as escapeData.
func escapeProperty(s string) string {
	return diag.Clean(strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s))
}
