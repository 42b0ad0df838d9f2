package cli

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/lint"
	"github.com/siteforge/siteforge/lint/report"
	_ "github.com/siteforge/siteforge/lint/rules" // every rule
)

func init() {
	register(&command{
		name:    "lint",
		args:    "PATH... [--format text|json|sarif|github] [--fail-on error|warning|info]",
		summary: "check sites and plain manifests for mistakes that break clusters",
		help: `PATH may be a site (as for vet: the site and its rendered objects are checked)
or a GitOps folder of plain files, walked recursively: Kubernetes YAML/JSON
streams, install-config.yaml, agent-config.yaml. Site files found while walking
(YAML/JSON declaring siteforge.dev/v1alpha1, folders of .cue files) are linted
as sites. Checks run across the whole set.

Suppress a finding with a reason: in a CUE site, an attribute on the field
(it covers everything under it): field: value @lint(ignore="MTU010",
reason="..."); for the whole site, lint: suppress: [{rule: "MIR001", reason:
"..."}]; on a manifest, the annotation siteforge.dev/ignore-MIR001: "<reason>".
Unused and reasonless suppressions are findings.

Exit 0 clean, 1 findings at or above --fail-on, 2 the tool could not run.`,
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			format := fs.String("format", "text", "output format: "+strings.Join(report.Names(), ", "))
			failOn := fs.String("fail-on", "error", "exit 1 on findings at or above this severity: error, warning or info")
			enable := fs.StringArray("enable", nil, "run only these rules (ID or name; repeatable, comma-separated)")
			disable := fs.StringArray("disable", nil, "skip these rules (ID or name; repeatable, comma-separated)")
			version := fs.String("ocp-version", "", "OpenShift version (4.N) of plain manifests without one")
			return func(e env, args []string) int {
				if len(args) == 0 {
					return usageError(e, "lint", "no PATH given")
				}
				write, ok := report.Formats[*format]
				if !ok {
					return usageError(e, "lint", fmt.Sprintf("unknown --format %q (%s)", *format, strings.Join(report.Names(), ", ")))
				}
				threshold, err := lint.ParseSeverity(*failOn)
				if err != nil {
					return usageError(e, "lint", "--fail-on: "+err.Error())
				}
				in := &lint.Input{}
				if *version != "" {
					m, err := platform.ParseOCPMinor(*version)
					if err != nil {
						return usageError(e, "lint", fmt.Sprintf("--ocp-version %q: %v", *version, err))
					}
					in.Minor = m
				}
				if !lintInput(e, args, in) {
					return ExitFailure
				}
				res, err := lint.Run(in, lint.Options{Enable: *enable, Disable: *disable})
				if err != nil {
					return usageError(e, "lint", err.Error())
				}
				report.ToolVersion = Version()
				var b bytes.Buffer
				if err := write(&b, res); err != nil {
					fmt.Fprintf(e.stderr, "siteforge lint: %v\n", err)
					return ExitFailure
				}
				_, _ = e.stdout.Write(b.Bytes())
				if res.Fails(threshold) {
					return ExitFindings
				}
				return ExitOK
			}
		},
	})
	register(&command{
		name:    "explain",
		args:    "[RULE]",
		summary: "list the lint rules, or explain one",
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			return func(e env, args []string) int {
				switch len(args) {
				case 0:
					for _, r := range lint.Rules() {
						fmt.Fprintf(e.stdout, "%s  %-7s  %-40s %s\n", r.ID, r.Severity, r.Name, r.Summary)
					}
					return ExitOK
				case 1:
					r := lint.Lookup(args[0])
					if r == nil {
						fmt.Fprintf(e.stderr, "siteforge explain: no rule %q; run siteforge explain for the list\n", args[0])
						return ExitFailure
					}
					fmt.Fprint(e.stdout, lint.Explain(r))
					return ExitOK
				}
				return usageError(e, "explain", "at most one RULE")
			}
		},
	})
}

// lintInput reads every PATH into the lint input: sites are loaded and
// rendered, plain files read as manifests.
func lintInput(e env, paths []string, in *lint.Input) bool {
	var sitePaths, manifestFiles []string
	var diags diag.List
	for _, p := range paths {
		s, m, d := load.Classify(p)
		sitePaths = append(sitePaths, s...)
		manifestFiles = append(manifestFiles, m...)
		diags = append(diags, d...)
	}
	if printDiagnostics(e.stderr, load.Result{Diagnostics: diags}) {
		return false
	}
	if len(sitePaths) > 0 {
		outs, ok := renderAll(e, sitePaths, generators.Options{})
		if !ok {
			return false
		}
		for _, o := range outs {
			objs, origin, err := o.Objects()
			if err != nil {
				fmt.Fprintf(e.stderr, "siteforge lint: %v\n", err)
				return false
			}
			in.Sites = append(in.Sites, &lint.Site{Site: o.Site, Objects: objs, Origin: origin})
		}
	}
	objs, d := manifests.ReadPaths(manifestFiles)
	if printDiagnostics(e.stderr, load.Result{Diagnostics: d}) {
		return false
	}
	in.Objects = objs
	return true
}
