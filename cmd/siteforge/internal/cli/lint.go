package cli

import (
	"bytes"
	"fmt"
	"strings"
	"sync"

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
				linter, err := lint.New(lint.Options{Enable: *enable, Disable: *disable})
				if err != nil {
					return usageError(e, "lint", err.Error())
				}
				if *version != "" {
					if _, err := platform.ParseOCPMinor(*version); err != nil {
						return usageError(e, "lint", fmt.Sprintf("--ocp-version %q: %v", *version, err))
					}
				}
				res, ok := lintPaths(e, linter, args, *version)
				if !ok {
					return ExitFailure
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

// lintPaths lints every PATH: each site is loaded, rendered and linted on
// the render workers, and only its findings are kept (memory does not grow
// with the fleet); the plain files are read as manifests and linted as one
// set, targeting the OpenShift version given (--ocp-version, checked; "":
// unknown).
func lintPaths(e env, linter *lint.Linter, paths []string, version string) (lint.Result, bool) {
	var sitePaths, manifestFiles []string
	var diags diag.List
	for _, p := range paths {
		s, m, d := load.Classify(p)
		sitePaths = append(sitePaths, s...)
		manifestFiles = append(manifestFiles, m...)
		diags = append(diags, d...)
	}
	if printDiagnostics(e.stderr, load.Result{Diagnostics: diags}) {
		return lint.Result{}, false
	}
	var parts []lint.Result
	if len(sitePaths) > 0 {
		bySite := map[int]lint.Result{}
		var mu sync.Mutex
		run, err := eachSite(sitePaths, generators.Options{}, func(i int, o *generators.Output) error {
			objs, origin, err := o.Objects()
			if err != nil {
				return err
			}
			res := linter.Check(lint.SiteSet(&lint.Site{Site: o.Site, Objects: objs, Origin: origin}))
			mu.Lock()
			bySite[i] = res
			mu.Unlock()
			return nil
		})
		if !finish(e, run, err) {
			return lint.Result{}, false
		}
		for _, i := range sortedIndexes(bySite) {
			parts = append(parts, bySite[i])
		}
	}
	objs, d := manifests.ReadPaths(manifestFiles)
	if printDiagnostics(e.stderr, load.Result{Diagnostics: d}) {
		return lint.Result{}, false
	}
	if len(objs) > 0 {
		minor, _ := platform.ParseOCPMinor(version) // 0 for ""
		parts = append(parts, linter.Check(lint.ManifestSet(objs, minor)))
	}
	return lint.Merge(parts...), true
}
