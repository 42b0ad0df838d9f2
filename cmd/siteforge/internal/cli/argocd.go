package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/verdict"
	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/suggest"
)

// The Argo CD Config Management Plugin (examples/argocd/plugin.yaml runs
// `siteforge argocd generate`). Argo CD's cmp-server runs the generate
// command in the Application's source folder of a copy of the repository,
// with the Application's spec.source.plugin.env as ARGOCD_ENV_<name>; it
// takes stdout as the manifests, fails the generation on a non-zero exit and
// shows the trimmed stderr after "`<command>` failed exit status N: "
// (argoproj/argo-cd cmpserver/plugin/plugin.go runCommand and CmdError;
// Argo CD docs "Config Management Plugins").

// argocdSetting is one Application env setting the plugin reads, named as
// the Application writes it (Argo CD adds platform.ArgoCDPluginEnvPrefix).
type argocdSetting struct {
	name, values, doc string
}

// argocdSettings are every setting the plugin reads; any other
// ARGOCD_ENV_SITEFORGE_* fails the generation (a misspelt setting would
// otherwise be ignored silently).
var argocdSettings = []argocdSetting{
	{name: "SITEFORGE_STRICT", values: "true or false (default false)", doc: "true: render warnings are errors, as render --strict"},
}

// argocdSettingPrefix marks the Application env meant for siteforge.
const argocdSettingPrefix = "SITEFORGE_"

func init() {
	var settings strings.Builder
	for _, s := range argocdSettings {
		fmt.Fprintf(&settings, "  %s=%s\n      %s\n", s.name, s.values, s.doc)
	}
	register(&command{
		name:    "argocd",
		args:    "generate",
		summary: "the Argo CD Config Management Plugin's generate command (examples/argocd)",
		help: `argocd generate renders the site of the folder it runs in, as Argo CD's
cmp-server runs a plugin's generate command: in the Application's source
folder of a copy of the repository. The folder is a site folder, a fleet's
sites/<name> folder (rendered with the fleet's defaults, as the fleet renders
it) or a fleet folder holding one site. One Application deploys to one
cluster: a folder holding several sites is refused.

On success stdout is the site's resources as one '---'-separated YAML stream
(render --stdout) and warnings go to stderr. On any problem stdout stays
empty (Argo CD would otherwise sync an empty set and, with prune, delete the
site's objects), the exit is 2 and stderr starts with the first
file:line:col: error: line, which Argo CD shows. A site that renders no
resources (only install outputs, patches or runbooks) is an error for the
same reason. Paths in messages and in the siteforge.dev/source annotation
are relative to the app folder, and for a fleet's site to the fleet's root
(sites/<name>/site.cue, defaults.cue), as render of the fleet writes them.

Settings, as the Application's spec.source.plugin.env (Argo CD passes each
as ` + platform.ArgoCDPluginEnvPrefix + `<name>; any other ` + platform.ArgoCDPluginEnvPrefix + argocdSettingPrefix + `* is an error):
` + settings.String() + `
Argo CD stops a plugin command after ARGOCD_EXEC_TIMEOUT (default ` + platform.ArgoCDExecTimeoutDefault + `);
render one site per Application (examples/argocd/applicationset.yaml).`,
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			return func(e env, args []string) int {
				if len(args) != 1 || args[0] != "generate" {
					return usageError(e, "argocd", "the only subcommand is generate (run by the plugin, examples/argocd/plugin.yaml)")
				}
				return argocdGenerate(e, os.Environ())
			}
		},
	})
}

// argocdOptions reads the plugin's settings from the environment.
func argocdOptions(environ []string) (generators.Options, error) {
	var opts generators.Options
	known := make([]string, 0, len(argocdSettings))
	for _, s := range argocdSettings {
		known = append(known, s.name)
	}
	var problems []string
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		setting, ok := strings.CutPrefix(name, platform.ArgoCDPluginEnvPrefix)
		if !ok || !strings.HasPrefix(setting, argocdSettingPrefix) {
			continue
		}
		switch setting {
		case "SITEFORGE_STRICT":
			switch value {
			case "true":
				opts.Strict = true
			case "false", "":
			default:
				problems = append(problems, fmt.Sprintf("%s=\"%s\": want true or false (Application spec.source.plugin.env %s)", diag.Clean(name), diag.Clean(value), diag.Clean(setting)))
			}
		default:
			msg := fmt.Sprintf("%s: unknown setting (Application spec.source.plugin.env %s); the plugin reads %s", diag.Clean(name), diag.Clean(setting), strings.Join(known, ", "))
			if s := suggest.Nearest(setting, known); s != "" {
				msg += fmt.Sprintf("; did you mean %s?", s)
			}
			problems = append(problems, msg)
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return opts, fmt.Errorf("%s", strings.Join(problems, "\n"))
	}
	return opts, nil
}

// argocdTarget is where to render from and what: a fleet's site is rendered
// from the fleet's root (paths as the fleet's render writes them), anything
// else from the app folder itself.
func argocdTarget(wd string) (dir, path string) {
	if root, site, ok := load.FleetOfSite(wd); ok {
		return root, site
	}
	return wd, "."
}

// argocdRepoRoot is the repository root of an app folder wd whose path in
// the repository is sourcePath (ARGOCD_APP_SOURCE_PATH).
func argocdRepoRoot(wd, sourcePath string) (string, bool) {
	sp := filepath.Clean(filepath.FromSlash(strings.Trim(sourcePath, "/")))
	if sourcePath == "" || filepath.IsAbs(sp) || sp == ".." || strings.HasPrefix(sp, ".."+string(filepath.Separator)) {
		return "", false
	}
	if sp == "." {
		return wd, true
	}
	if !strings.HasSuffix(wd, string(filepath.Separator)+sp) {
		return "", false
	}
	return strings.TrimSuffix(wd, string(filepath.Separator)+sp), true
}

func envValue(environ []string, name string) string {
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}

func argocdGenerate(e env, environ []string) int {
	// fail prints an error whose values are diag.Clean
	fail := func(format string, a ...any) int {
		fmt.Fprintf(e.stderr, "siteforge argocd generate: "+format+"\n", a...)
		return ExitFailure
	}
	opts, err := argocdOptions(environ)
	if err != nil {
		return fail("%s", err) // a line per setting, each Clean
	}
	wd, err := os.Getwd()
	if err != nil {
		return fail("the app folder: %s", diag.Clean(err.Error()))
	}
	// The repository root, for the siteforge.dev/source annotation and the
	// file headers (load.Origin): the app folder is <root>/<source path>.
	// The copy of the repository the sidecar gets may lack .git.
	if root, ok := argocdRepoRoot(wd, envValue(environ, platform.ArgoCDAppSourcePathEnv)); ok {
		load.SetRepoRoot(root)
		defer load.SetRepoRoot("")
	}
	dir, path := argocdTarget(wd)
	if dir != wd {
		// The process renders from the fleet's root; the working folder is
		// restored for a caller in the same process (tests).
		if err := os.Chdir(dir); err != nil {
			return fail("the fleet of the app folder: %s", diag.Clean(err.Error()))
		}
		defer os.Chdir(wd) //nolint:errcheck // restoring a folder the process was just in
	}
	units, diags := load.Discover([]string{path})
	if len(units) > 1 {
		var names []string
		for _, u := range units {
			names = append(names, diag.Clean(u.Source()))
		}
		d := diag.Diagnostic{Pos: diag.Position{File: path},
			Message: fmt.Sprintf("the app folder holds %d sites (%s): an Application deploys to one cluster", len(units), strings.Join(names, ", ")),
			Hint:    "point each Application's source.path at one site folder, e.g. with an ApplicationSet over sites/* (examples/argocd/applicationset.yaml)"}
		printDiagnostics(e.stderr, load.Result{Diagnostics: diag.List{d}})
		return ExitFailure
	}
	var (
		mu     sync.Mutex
		stream []byte
		empty  diag.List
	)
	run, err := eachUnit(units, diags, verdict.Options{Render: opts}, func(_ int, o *generators.Output) error {
		mu.Lock()
		defer mu.Unlock()
		if len(o.Resources) == 0 {
			empty = append(empty, diag.Diagnostic{Pos: diag.Position{File: o.Site.Source},
				Message: "site " + o.Site.Name + " renders no Kubernetes resources (only install outputs, patches or runbooks): Argo CD would sync an empty set and, with prune, delete what the Application deployed",
				Hint:    "do not point an Application at this site, or give it day-2 resources; its other outputs are written by siteforge render -o DIR"})
			return nil
		}
		stream = o.Stream()
		return nil
	})
	if err != nil {
		return fail("%s", diag.Clean(err.Error()))
	}
	res := load.Result{Diagnostics: append(run.Diagnostics, empty...).Sort(), Sources: run.Sources}
	var warnings diag.List
	for _, w := range run.Warnings {
		warnings = append(warnings, w...)
	}
	// Errors first: Argo CD shows stderr from its start, and the first
	// line is what a user reads.
	if printDiagnostics(e.stderr, res) {
		printWarnings(e.stderr, res, warnings.Sort())
		printSuppressed(e.stderr, run)
		return ExitFailure
	}
	printWarnings(e.stderr, res, warnings.Sort())
	printSuppressed(e.stderr, run)
	if _, err := e.stdout.Write(stream); err != nil {
		return fail("%s", diag.Clean(err.Error()))
	}
	return ExitOK
}
