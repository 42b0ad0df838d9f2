package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/siteforge/siteforge/generators"
	_ "github.com/siteforge/siteforge/generators/all" // every generator
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/output"
)

func init() {
	register(&command{
		name:    "render",
		args:    "PATH... (-o DIR | --stdout) [--check] [--strict]",
		summary: "compile sites into manifests",
		help: `Renders every site named by PATH (as for vet). With -o DIR each site is written
to DIR/<site>/: files grouped by kind and a kustomization.yaml listing the
resources (kustomize build DIR/<site> works). The folder is replaced atomically:
a failing render exits 2 and leaves the previous output untouched, and nothing
is written unless every site renders.

With --stdout the resources of every site are written as one '---'-separated
YAML stream (for Argo CD), only when every site renders.

With --check -o DIR nothing is written: exit 1 lists the stale, missing and
extra files when DIR differs from what render would write (for CI and
pre-commit), exit 0 when it is up to date.`,
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			out := fs.StringP("output", "o", "", "output directory (one folder per site)")
			stdout := fs.Bool("stdout", false, "write the resources as one YAML stream to stdout")
			check := fs.Bool("check", false, "with -o: report files that differ from a fresh render, write nothing")
			strict := fs.Bool("strict", false, "treat warnings as errors")
			return func(e env, args []string) int {
				switch {
				case len(args) == 0:
					return usageError(e, "render", "no PATH given")
				case (*out == "") == !*stdout:
					return usageError(e, "render", "give exactly one of -o DIR and --stdout")
				case *check && *out == "":
					return usageError(e, "render", "--check needs -o DIR")
				}
				outs, ok := renderAll(e, args, generators.Options{Strict: *strict})
				if !ok {
					return ExitFailure
				}
				switch {
				case *stdout:
					var b bytes.Buffer
					for _, o := range outs {
						b.Write(o.Stream())
					}
					if _, err := e.stdout.Write(b.Bytes()); err != nil {
						fmt.Fprintf(e.stderr, "siteforge render: %v\n", err)
						return ExitFailure
					}
				case *check:
					return checkOutput(e, *out, outs)
				default:
					if err := output.PrepareDir(*out); err != nil {
						fmt.Fprintf(e.stderr, "siteforge render: -o %s: %v\n", *out, err)
						return ExitFailure
					}
					for _, o := range outs {
						if err := output.Write(*out, output.Site{Name: o.Site.Name, Files: o.Files}); err != nil {
							fmt.Fprintf(e.stderr, "siteforge render: %v\n", err)
							return ExitFailure
						}
						fmt.Fprintf(e.stdout, "rendered %s -> %s/%s (%d files)\n", o.Site.Source, *out, o.Site.Name, len(o.Files))
					}
				}
				return ExitOK
			}
		},
	})
}

func usageError(e env, verb, msg string) int {
	fmt.Fprintf(e.stderr, "siteforge %s: %s\nusage: siteforge %s %s\n", verb, msg, verb, commands[verb].args)
	return ExitFailure
}

// renderAll loads and renders every site; it prints every problem and
// reports whether all sites rendered.
func renderAll(e env, paths []string, opts generators.Options) ([]*generators.Output, bool) {
	res := load.Load(paths)
	if printDiagnostics(e.stderr, res) {
		return nil, false
	}
	var outs []*generators.Output
	var problems diag.List
	for _, s := range res.Sites {
		o, err := generators.Render(s, opts)
		var dl diag.List
		switch {
		case errors.As(err, &dl):
			problems = append(problems, dl...)
			continue
		case err != nil:
			fmt.Fprintf(e.stderr, "siteforge render: site %s: internal error: %v\n", s.Name, err)
			return nil, false
		}
		printWarnings(e.stderr, res, o.Warnings)
		outs = append(outs, o)
	}
	if printDiagnostics(e.stderr, load.Result{Diagnostics: problems, Sources: res.Sources}) {
		return nil, false
	}
	return outs, true
}

func printWarnings(w io.Writer, res load.Result, warnings diag.List) {
	p := printer(res)
	for _, d := range warnings {
		fmt.Fprint(w, p.FormatSeverity(d, "warning"))
	}
}

func checkOutput(e env, dir string, outs []*generators.Output) int {
	var diffs []string
	for _, o := range outs {
		d, err := output.Diff(dir, output.Site{Name: o.Site.Name, Files: o.Files})
		if err != nil {
			fmt.Fprintf(e.stderr, "siteforge render --check: %v\n", err)
			return ExitFailure
		}
		diffs = append(diffs, d...)
	}
	if len(diffs) == 0 {
		fmt.Fprintf(e.stdout, "%s is up to date\n", dir)
		return ExitOK
	}
	for _, d := range diffs {
		fmt.Fprintln(e.stdout, d)
	}
	fmt.Fprintf(e.stderr, "%s is not up to date (%d files differ): run siteforge render -o %s\n", dir, len(diffs), dir)
	return ExitFindings
}
