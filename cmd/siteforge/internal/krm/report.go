package krm

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/lint"
)

// reporter writes every problem as a ResourceList result and on stderr.
type reporter struct {
	rl     *framework.ResourceList
	stderr io.Writer
	label  string // "SiteLint <name>", for messages about the function itself
}

// failure reports that the function could not do its job.
func (r *reporter) failure(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.rl.Results = append(r.rl.Results, &framework.Result{Message: msg, Severity: framework.Error})
	prefix := "siteforge fn"
	if r.label != "" {
		prefix += ": " + r.label
	}
	fmt.Fprintf(r.stderr, "%s: %s\n", prefix, diag.Clean(msg))
}

// note says which checks did not run, and why (an Info result).
func (r *reporter) note(msg string) {
	r.rl.Results = append(r.rl.Results, &framework.Result{Message: msg, Severity: framework.Info})
	prefix := "siteforge fn"
	if r.label != "" {
		prefix += ": " + r.label
	}
	fmt.Fprintf(r.stderr, "%s: note: %s\n", prefix, diag.Clean(msg))
}

// diagnostics reports problems in site inputs, with the snippet the CLI
// prints; severity is "error" or "warning".
func (r *reporter) diagnostics(res load.Result, list diag.List, severity string) {
	p := &diag.Printer{Source: func(file string) ([]byte, bool) {
		b, ok := res.Sources[file]
		return b, ok
	}}
	for _, d := range list {
		fmt.Fprint(r.stderr, p.FormatSeverity(d, severity))
		msg := d.Message
		if d.Path != "" {
			msg = d.Path + ": " + msg
		}
		if d.Hint != "" {
			msg += " (hint: " + d.Hint + ")"
		}
		res := &framework.Result{
			Message:  msg,
			Severity: framework.Severity(severity),
			File:     resultFile(d.Pos),
			Tags:     positionTags(d.Pos),
		}
		if d.Rule != "" {
			res.Tags["rule"] = d.Rule // a render warning's ID, as lint findings carry theirs
			if rule := lint.Lookup(d.Rule); rule != nil {
				res.Tags["name"] = rule.Name
			}
		}
		r.rl.Results = append(r.rl.Results, res)
	}
}

// findings reports lint findings (positions already in the user's files);
// file, when it returns non-nil, is the result's file for finding i (the
// path and index annotations of the item it is about).
func (r *reporter) findings(fs []lint.Finding, file func(i int) *framework.File) {
	for i, f := range fs {
		fmt.Fprintf(r.stderr, "%s: %s: %s [%s]\n", diag.SafeLine(f.Pos.String()), f.Severity, diag.Clean(f.Message), f.Rule)
		res := &framework.Result{
			Message:  f.Message,
			Severity: severity(f.Severity),
			File:     resultFile(f.Pos),
			Tags:     positionTags(f.Pos),
		}
		if fl := file(i); fl != nil {
			res.File = fl
		}
		res.Tags["rule"] = f.Rule
		res.Tags["name"] = f.Name
		if f.Site != "" {
			res.Tags["site"] = f.Site
		}
		if ref := f.Resource; ref != nil {
			res.ResourceRef = &kyaml.ResourceIdentifier{
				TypeMeta: kyaml.TypeMeta{APIVersion: ref.APIVersion, Kind: ref.Kind},
				NameMeta: kyaml.NameMeta{Name: ref.Name, Namespace: ref.Namespace},
			}
		}
		r.rl.Results = append(r.rl.Results, res)
	}
}

func severity(s lint.Severity) framework.Severity {
	switch s {
	case lint.Error:
		return framework.Error
	case lint.Warning:
		return framework.Warning
	}
	return framework.Info
}

func resultFile(p diag.Position) *framework.File {
	if p.File == "" {
		return nil
	}
	return &framework.File{Path: filepath.ToSlash(p.File)}
}

// positionTags carries line and column: results have no field for them.
func positionTags(p diag.Position) map[string]string {
	tags := map[string]string{}
	if p.Line > 0 {
		tags["line"] = strconv.Itoa(p.Line)
		tags["column"] = strconv.Itoa(max(p.Col, 1))
	}
	return tags
}
