package cli

import (
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/spf13/pflag"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/verdict"
	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/fsread"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/schema"
)

func init() {
	register(&command{
		name:    "vet",
		args:    "PATH...",
		summary: "check sites: schema, cross-field checks, render refusals and lint rules, writing nothing",
		help: `PATH is a site file (.cue, .yaml, .yml, .json), a directory holding one site
(its files are unified), a fleet directory (a sites/ folder with one folder
per site), or a fleet's sites/ folder. In a fleet, the fleet directory's .cue
files, and its YAML/JSON declaring apiVersion siteforge.dev/v1alpha1, are
unified into every site; other YAML/JSON there is ignored with a note. A site
folder of a fleet (<fleet>/sites/<name>), or a file in it, is that site with
the fleet's files, as the fleet renders it.

vet runs every check render and lint run on a site (the schema, the
cross-field and install checks, every generator's refusal, the lint rules on
what the site renders) and writes nothing: render refuses exactly what vet
reports as an error, under the same rule ID. Every problem is reported at
file:line:col in your files, with its rule ID; a check that could not run
because an earlier one failed is named in a note. Exit 0 when every site is
valid, 2 otherwise.

PATH - reads one site from stdin (YAML, JSON or CUE, told apart by its
syntax; at most the size of a site file); positions say <stdin>:line:col.
--format json prints one object with the sites that passed and every error
and warning (docs/json/vet.schema.json).`,
		example: `  siteforge vet examples/agent-sno
  siteforge vet --format json examples/fleet | jq '.diagnostics[] | select(.severity == "error")'
  siteforge vet - < examples/disconnected-quay-cache/site.yaml`,
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			quiet := fs.BoolP("quiet", "q", false, "print nothing on success")
			format := fs.String("format", "text", "output format: text or json (docs/json/vet.schema.json)")
			return func(e env, args []string) int {
				if len(args) == 0 {
					fmt.Fprintln(e.stderr, "siteforge vet: no PATH given\nusage: siteforge vet PATH...")
					return ExitFailure
				}
				if !formatFlag(e, "vet", *format) {
					return ExitFailure
				}
				if slices.Contains(args, "-") && len(args) > 1 {
					return usageError(e, "vet", "- (a site on stdin) is the only PATH when given")
				}
				defer fleetGC()() // the same allocation profile as render and lint (fleetGCPercent)
				sites := map[int]vetSite{}
				var mu sync.Mutex
				use := func(i int, o *generators.Output) error {
					mu.Lock()
					sites[i] = vetSite{Name: o.Site.Name, Source: o.Site.Source}
					mu.Unlock()
					return nil
				}
				var run siteRun
				var err error
				if len(args) == 1 && args[0] == "-" {
					data, ok := readStdin(e, "vet", load.MaxFileSize, "a site")
					if !ok {
						return ExitFailure
					}
					// the one check pipeline, as for a site file
					run, err = eachUnit([]load.Unit{load.StdinUnit(data, "")}, nil, verdict.Options{}, use)
				} else {
					run, err = eachSite(args, generators.Options{}, use)
				}
				if *format == "json" {
					if err != nil {
						fmt.Fprintf(e.stderr, "siteforge: %s\n", diag.Clean(err.Error()))
						return ExitFailure
					}
					var passed []vetSite
					for _, i := range sortedIndexes(sites) {
						passed = append(passed, vetSite{Name: diag.Clean(sites[i].Name), Source: diag.Clean(sites[i].Source)})
					}
					if code := writeJSON(e, "vet", runJSON(run, passed)); code != ExitOK || len(run.Diagnostics) > 0 {
						return ExitFailure
					}
					return ExitOK
				}
				if !finish(e, run, err) {
					return ExitFailure
				}
				if !*quiet {
					for _, i := range sortedIndexes(sites) {
						fmt.Fprintf(e.stdout, "ok %s (site %s)\n", diag.SafeLine(sites[i].Source), sites[i].Name)
					}
				}
				return ExitOK
			}
		},
	})
	register(&command{
		name:    "schema",
		args:    "",
		summary: "print the embedded CUE schema (for cue vet and editors)",
		help: `The schema defines #Site, version ` + schema.APIVersion + `. Check a YAML site with the
CUE tool: siteforge schema > siteforge.cue && cue vet -d '#Site' siteforge.cue site.yaml`,
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			return func(e env, args []string) int {
				if len(args) > 0 {
					fmt.Fprintln(e.stderr, "siteforge schema: takes no arguments")
					return ExitFailure
				}
				if _, err := e.stdout.Write(schema.Source); err != nil {
					fmt.Fprintf(e.stderr, "siteforge schema: %v\n", err)
					return ExitFailure
				}
				return ExitOK
			}
		},
	})
}

// printDiagnostics writes every diagnostic with its snippet and reports
// whether there were any.
func printDiagnostics(w io.Writer, res load.Result) bool {
	if len(res.Diagnostics) == 0 {
		return false
	}
	p := printer(res)
	for _, d := range res.Diagnostics {
		fmt.Fprint(w, p.Format(d))
	}
	n := len(res.Diagnostics)
	fmt.Fprintf(w, "%d error%s\n", n, plural(n))
	return true
}

// printer shows snippets from the sources the loader read, else from the
// file on disk (a manifest), read bounded; the printer's own policy decides
// what of it may be shown.
func printer(res load.Result) *diag.Printer {
	return &diag.Printer{Source: func(file string) ([]byte, bool) {
		if b, ok := res.Sources[file]; ok {
			return b, true
		}
		b, err := fsread.File(file, manifests.MaxFileSize)
		return diag.LoneCRToLF(b), err == nil
	}}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
