package lint

import (
	"fmt"
	"strings"
)

// Explain is the full text of a rule, as `siteforge explain ID` prints it.
func Explain(r *Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (%s)\n\n%s\n\n", r.ID, r.Name, r.Severity, r.Summary)
	fmt.Fprintf(&b, "Why:\n%s\n\nFix:\n%s\n\nSince: %s\n", wrap(r.Rationale), wrap(r.Fix), r.Since)
	return b.String()
}

// Markdown is the reference documentation of every rule (docs/rules.md).
func Markdown() string {
	var b strings.Builder
	b.WriteString("# siteforge lint rules\n\n")
	b.WriteString("Generated from the rule registry by `go test ./lint -run TestRulesDoc` with UPDATE_GOLDEN=1 (`make golden`); do not edit.\n")
	b.WriteString("`siteforge explain ID` prints the same text.\n\n")
	b.WriteString("| ID | name | severity | summary |\n|---|---|---|---|\n")
	for _, r := range Rules() {
		fmt.Fprintf(&b, "| [%s](#%s) | %s | %s | %s |\n", r.ID, strings.ToLower(r.ID), r.Name, r.Severity, r.Summary)
	}
	for _, r := range Rules() {
		fmt.Fprintf(&b, "\n## %s\n\n`%s`, %s, since %s. %s\n\n**Why.** %s\n\n**Fix.** %s\n", r.ID, r.Name, r.Severity, r.Since, r.Summary, r.Rationale, r.Fix)
	}
	return b.String()
}

// wrap breaks text at 80 columns, indented by two spaces.
func wrap(s string) string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line := " "
		for _, w := range strings.Fields(para) {
			if len(line)+1+len(w) > 80 && line != " " {
				lines = append(lines, line)
				line = " "
			}
			line += " " + w
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}
