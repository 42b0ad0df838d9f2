package cli

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/config"
	"github.com/siteforge/siteforge/cmd/siteforge/internal/verdict"
	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/discover"
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
		args:    "PATH... [--format text|json|sarif|github] [--fail-on error|warning|info] [--exclude PATTERN]",
		summary: "check sites and plain manifests for mistakes that break clusters",
		help: `PATH may be a site (as for vet: the site and its rendered objects are checked)
or a GitOps repository, walked recursively and read as it is kept:
  - sites: folders of .cue files, YAML/JSON declaring siteforge.dev/v1alpha1,
    fleets (a folder with sites/): each site is its own cluster;
  - plain manifests: YAML/JSON streams (kind List unwrapped), install-config,
    agent-config, registries.conf, files without an extension that hold
    objects. Each kustomization root, each rendered site folder and each
    folder holding a .siteforge-cluster file is its own cluster; the other
    manifests are one cluster (the site's, when there is exactly one site).
    A folder holding install-config.yaml (the installer's --dir) is one
    cluster with what the installer reads beside it (agent-config.yaml,
    openshift/, manifests/, mirror/): installation folders side by side are
    clusters of their own (a single one under a kustomization root or a
    marked folder is that cluster's). Of oc-mirror v1's results-<unix time>
    folders in one workspace, only the newest (the greatest time in the
    name) is read: each run writes the whole mirror's resources again.
    A rendered site folder's objects are what Argo CD and kustomize apply
    from it, the resources its kustomization.yaml lists, and its installer's
    inputs (install/); the patches beside them (applied by hand, one after
    the other) are not objects of the cluster. A rendered site folder whose
    site is linted too is skipped: its findings are reported once, at the
    site's line. Linted without its site, the folder's findings follow the
    site's suppressions and severity settings: the site is found by the
    siteforge.dev/source annotation of the folder's objects (INP007 when it
    cannot be found or does not load);
  - a running cluster's state: the folder oc adm must-gather writes (or one
    image folder of it, or an oc adm inspect folder) and an unpacked Insights
    archive are each one cluster, told by their layout, holding what the
    cluster holds, status included: its nodes, pools, rendered configs,
    network, mirror objects, catalogs and their pods, EgressIPs. Its release
    is its ClusterVersion's (not --ocp-version's); no Secret, event or log is
    read, and nothing is reported on the objects the platform's operators
    write themselves (MCO's generated MachineConfigs, the default
    IngressController). docs/diagnose.md walks through it;
  - kustomize function configs (SiteRender, SiteLint) and an exported schema
    (siteforge schema > x.cue) are not linted; hidden entries are skipped.
Cross-object rules run within one cluster. A file that does not parse, a
template (Jinja, Helm, Go template, heredoc), a site that does not load, a
render warning or an object defined twice is a finding (INP rules) and the
run goes on. Keep paths out with .siteforgeignore files (gitignore syntax,
relative to their folder) or --exclude.

Suppress a finding with a reason: in a CUE site, an attribute on the field
(it covers everything under it): field: value @lint(ignore="MTU010",
reason="..."); for the whole site, lint: suppress: [{rule: "MIR001", reason:
"..."}]; on a manifest, the annotation siteforge.dev/ignore-MIR001: "<reason>".
Unused and reasonless suppressions are findings.

PATH - reads stdin: a stream of manifests (oc get ... -o yaml | siteforge
lint -), linted with the plain manifests of the other PATHs, or one site
(cat site.cue | siteforge lint -), linted as a site file is; positions say
<stdin>:line:col. A site is told from manifests as a file is: it declares
apiVersion siteforge.dev/v1alpha1 (a SiteRender or SiteLint function config
is neither); CUE, JSON and YAML are told apart by their syntax (CUE that is
not YAML is a site even without apiVersion).

Settings: .siteforge.yaml in the working folder or the nearest folder above
(siteforge explain config) sets fail-on, format, ocp-version, exclude and the
rules disabled with their reasons; the flags given win.

Exit 0 clean, 1 findings at or above --fail-on, 2 the tool could not run (a
PATH that does not exist, a bad .siteforge.yaml, an internal error); the report
is printed in every case but the last two.`,
		example: `  siteforge lint examples/fleet
  siteforge lint must-gather.local.5483957185
  siteforge lint --format sarif --fail-on warning examples/fleet > siteforge.sarif
  siteforge render --stdout examples/agent-sno | siteforge lint -
  siteforge lint - < examples/agent-sno/site.cue
  oc get imagedigestmirrorsets,imagetagmirrorsets -o yaml | siteforge lint -`,
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			format := fs.String("format", "text", "output format: "+strings.Join(report.Names(), ", "))
			failOn := fs.String("fail-on", "error", "exit 1 on findings at or above this severity: error, warning or info")
			enable := fs.StringArray("enable", nil, "run only these rules (ID or name; repeatable, comma-separated)")
			disable := fs.StringArray("disable", nil, "skip these rules (ID or name; repeatable, comma-separated)")
			version := fs.String("ocp-version", "", "OpenShift version (4.N) of plain manifests without one")
			exclude := fs.StringArray("exclude", nil, "gitignore pattern of paths not to lint, relative to each PATH (repeatable; also read from .siteforgeignore files)")
			configPath := fs.String("config", "", "the configuration file (default: "+config.FileName+" in the working folder or the nearest folder above; siteforge explain config)")
			noConfig := fs.Bool("no-config", false, "read no configuration file")
			return func(e env, args []string) int {
				if len(args) == 0 {
					return usageError(e, "lint", "no PATH given")
				}
				if *configPath != "" && *noConfig {
					return usageError(e, "lint", "give --config or --no-config, not both")
				}
				cfg, ok := readConfig(e, *configPath, *noConfig, args[0])
				if !ok {
					return ExitFailure
				}
				// flags win: a scalar given replaces the file's, a list adds to it
				for flag, v := range map[string]struct {
					to   *string
					from string
				}{"format": {format, cfg.Lint.Format}, "fail-on": {failOn, cfg.Lint.FailOn}, "ocp-version": {version, cfg.Lint.OCPVersion}} {
					if !fs.Changed(flag) && v.from != "" {
						*v.to = v.from
					}
				}
				versionFrom := "" // --ocp-version
				if !fs.Changed("ocp-version") && cfg.Lint.OCPVersion != "" {
					versionFrom = "ocp-version in " + diag.Clean(cfg.Path)
				}
				*exclude = append(slices.Clone(cfg.Lint.Exclude), *exclude...)
				*disable = append(cfg.Lint.Rules(), *disable...)
				var stdin []byte
				if i := slices.Index(args, "-"); i >= 0 {
					if slices.Contains(args[i+1:], "-") {
						return usageError(e, "lint", "- (standard input) given twice")
					}
					// a site on stdin is bounded as a site file is by the loader
					data, ok := readStdin(e, "lint", manifests.MaxFileSize, "a manifest file")
					if !ok {
						return ExitFailure
					}
					stdin, args = data, slices.Delete(slices.Clone(args), i, i+1)
				}
				write, ok := report.Formats[*format]
				if !ok {
					return usageError(e, "lint", fmt.Sprintf("unknown --format \"%s\" (%s)", *format, strings.Join(report.Names(), ", ")))
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
						return usageError(e, "lint", fmt.Sprintf("--ocp-version \"%s\": %v", *version, err))
					}
				}
				res, ok := func() (lint.Result, bool) {
					defer fleetGC()()
					return lintPaths(e, linter, args, stdin, *version, versionFrom, *exclude)
				}()
				// The report is printed whatever happened: a CI step
				// uploading SARIF or reading JSON gets the problems.
				report.ToolVersion = Version()
				var b bytes.Buffer
				if err := write(&b, res); err != nil {
					fmt.Fprintf(e.stderr, "siteforge lint: %s\n", diag.Clean(err.Error()))
					return ExitFailure
				}
				_, _ = e.stdout.Write(b.Bytes())
				if !ok {
					return ExitFailure
				}
				if res.Fails(threshold) {
					return ExitFindings
				}
				return ExitOK
			}
		},
	})
	register(&command{
		name:    "explain",
		args:    "[RULE|config]",
		summary: "list the lint rules, or explain one; explain config documents .siteforge.yaml",
		help: `Without an argument, lists every lint rule: ID, severity, name, summary. With
a rule's ID or name, prints why it exists (the platform fact and its source),
how to fix what it finds, and since when it exists. explain config documents
the configuration file (.siteforge.yaml). --format json prints one object
(schema: docs/json/explain.schema.json).`,
		example: `  siteforge explain MTU001
  siteforge explain config
  siteforge explain --format json | jq -r '.rules[].id'`,
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			format := fs.String("format", "text", "output format: text or json (docs/json/explain.schema.json)")
			return func(e env, args []string) int {
				if !formatFlag(e, "explain", *format) {
					return ExitFailure
				}
				out := explainJSON{SchemaVersion: jsonSchemaVersion}
				switch len(args) {
				case 0:
					if *format == "json" {
						out.Rules = []explainRule{}
						for _, r := range lint.Rules() {
							out.Rules = append(out.Rules, ruleJSON(r, false))
						}
						return writeJSON(e, "explain", out)
					}
					for _, r := range lint.Rules() {
						fmt.Fprintf(e.stdout, "%s  %-7s  %-40s %s\n", r.ID, r.Severity, r.Name, r.Summary)
					}
					return ExitOK
				case 1:
					if text, ok := explainTopics[args[0]]; ok {
						if *format == "json" {
							out.Topic = &explainTopicJS{Name: args[0], Text: text}
							return writeJSON(e, "explain", out)
						}
						fmt.Fprint(e.stdout, text)
						return ExitOK
					}
					r := lint.Lookup(args[0])
					if r == nil {
						fmt.Fprintf(e.stderr, "siteforge explain: no rule \"%s\"; run siteforge explain for the list\n", diag.Clean(args[0]))
						return ExitFailure
					}
					if *format == "json" {
						out.Rules = []explainRule{ruleJSON(r, true)}
						return writeJSON(e, "explain", out)
					}
					fmt.Fprint(e.stdout, lint.Explain(r))
					return ExitOK
				}
				return usageError(e, "explain", "at most one RULE")
			}
		},
	})
}

// explainTopics are what explain documents besides the rules, by name.
var explainTopics = map[string]string{}

// fleetGCPercent and fleetMemoryLimit are the garbage collector's settings
// while lint, render and vet run. They load (and render) every site on the workers
// and keep only the findings or the staged files, so the live heap is small
// and flat (about 25 MiB on two workers, whatever the fleet size: each
// worker's CUE context is replaced every loaderReuse sites) while about
// 1.5 MiB is allocated per site: at the default GOGC=100 the collector
// takes about a fifth of the CPU (the issue 18 profile). Measured on 3,500
// sites, tmpfs, 2 cores (render, before the contexts were replaced every
// 32 sites: wall, peak RSS):
//
//	GOGC=100:                    8.2-8.4 s, 111 MiB
//	GOGC=200:                    5.2-6.1 s, 161-169 MiB
//	GOGC=400:                    4.6 s, 279 MiB (over the 256 MiB budget)
//	GOGC=400, GOMEMLIMIT=180MiB: 4.7 s, 199 MiB (a limit tried, not the one chosen)
//
// and with contexts replaced every 32 sites (CPU user+sys, peak RSS):
// GOGC=400 under 192 MiB 8.3 s, 152-158 MiB; GOGC=800 under 192 MiB
// 7.8 s, 210-214 MiB. So the collector runs rarely (GOGC=800) until the
// heap nears a soft limit (runtime/debug SetMemoryLimit: a fleet whose heap
// nears it is collected more often, never failed) that grows with the
// workers, since each holds a site and a CUE context: 64 MiB plus 64 MiB
// per worker, 192 MiB on two cores, which keeps the peak RSS within the
// 256 MiB budget there.
const fleetGCPercent = 800

// fleetMemoryLimit is the soft memory limit for workers site workers.
func fleetMemoryLimit(workers int) int64 {
	return int64(64<<20) * int64(1+max(workers, 1))
}

// fleetGC sets GOGC and the soft memory limit for a render, lint or vet run and
// returns what puts them back. A GOGC or GOMEMLIMIT the user set is left
// alone: the user's tuning wins.
func fleetGC() (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(fleetGCPercent)
	oldLimit := debug.SetMemoryLimit(fleetMemoryLimit(runtime.GOMAXPROCS(0)))
	return func() {
		debug.SetGCPercent(old)
		debug.SetMemoryLimit(oldLimit)
	}
}

// lintPaths lints every PATH, walked as a GitOps repository is kept
// (internal/discover): each site is loaded, rendered and linted on the
// render workers, and only its findings are kept (memory does not grow with
// the fleet); the plain manifests are linted by cluster: each rendered site
// folder (skipped when its site is linted too, so a finding is reported
// once, at the site's line), each kustomization root, marked folder or
// installation folder, and
// the rest together, which is the site's own cluster when there is exactly
// one site. Files that cannot be read, templates, sites that do not load and
// render warnings are findings (INP rules): the run goes on. ok is false
// when the run could not be done (a PATH that does not exist, an internal
// error); the findings are still returned, for the report. version is the
// OpenShift version of what does not say its own, given where versionFrom
// says (lint.GivenMinorFrom).
func lintPaths(e env, linter *lint.Linter, paths []string, stdin []byte, version, versionFrom string, exclude []string) (lint.Result, bool) {
	ok := true
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			ok = false // reported by the walk, as INP006
		}
	}
	var found discover.Result
	if len(paths) > 0 {
		found = discover.Paths(paths, discover.Options{Exclude: exclude})
	}
	var units []load.Unit
	var diags diag.List
	if len(found.Sites) > 0 {
		units, diags = load.Discover(found.Sites)
	}
	if stdin != nil {
		// PATH -: a site, linted as a site file is, or a stream of
		// manifests, plain manifests of the cluster the other loose files
		// are (vet - reads a site the same way: load.StdinUnit)
		switch kind, syntax := load.ClassifyStdin(stdin); kind {
		case load.StdinSite:
			units = append(units, load.StdinUnit(stdin, syntax))
		case load.StdinManifests:
			objs, probs := manifests.Scan(load.Stdin, stdin)
			found.Loose = append(found.Loose, objs...)
			found.Problems = append(found.Problems, probs...)
		}
	}
	minor, _ := platform.ParseOCPMinor(version) // 0 for ""
	var inputs []lint.Finding
	for _, p := range found.Problems {
		inputs = append(inputs, lint.ProblemFinding(p))
	}
	parts := []lint.Result{}
	linted := map[string]bool{} // names of the sites linted
	if len(units) > 0 || len(diags) > 0 {
		var extra []*manifests.Object
		if len(units) == 1 {
			extra, found.Loose = found.Loose, nil // one cluster: the site and the files beside it
		}
		var mu sync.Mutex
		run, err := eachUnit(units, diags, verdict.Options{Linter: linter, Extra: extra, Minor: minor, MinorFrom: versionFrom, Findings: true}, func(i int, o *generators.Output) error {
			mu.Lock()
			linted[o.Site.Name] = true
			mu.Unlock()
			return nil
		})
		if err != nil {
			fmt.Fprintf(e.stderr, "siteforge: %s\n", diag.Clean(err.Error()))
			ok = false
		}
		for _, d := range run.Diagnostics {
			rule := d.Rule
			if rule == "" || lint.Lookup(rule) == nil {
				rule = lint.RuleSiteLoad
			}
			inputs = append(inputs, lint.InputFinding(rule, "", d))
		}
		parts = append(parts, run.Lint...)
	}
	if len(found.Loose) > 0 {
		parts = append(parts, linter.Check(lint.ManifestSet(found.Loose, minor, versionFrom)))
	}
	for _, c := range found.Clusters {
		if c.RenderedSite != "" && linted[c.RenderedSite] {
			continue // the site's own findings cover its rendered copy
		}
		if len(c.Objects) == 0 {
			continue
		}
		set := lint.ManifestSet(c.Objects, minor, versionFrom)
		if c.Live() {
			set = lint.LiveSet(c.Objects, minor, versionFrom)
		}
		if c.RenderedSite != "" {
			// linted without its site: the site's suppressions apply
			from, gone := renderedFrom(c)
			set.RenderedFrom = from
			if gone != nil {
				inputs = append(inputs, *gone)
			}
		}
		parts = append(parts, linter.Check(set))
	}
	parts = append(parts, linter.Inputs(inputs))
	return lint.Merge(parts...), ok
}
