package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/guard"
	"github.com/siteforge/siteforge/cmd/siteforge/internal/verdict"
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
pre-commit), exit 0 when it is up to date.

A record of the digest of each site's inputs (the bytes read, siteforge
build, schema, --strict) and of the files they render to is kept in the
user's cache directory ($SITEFORGE_CACHE, else the OS cache folder), never
in DIR: a site whose inputs and folder did not change is not evaluated
again ("unchanged"). SITEFORGE_CACHE=off renders every site. See
docs/limits.md.`,
		example: `  siteforge render -o rendered examples/fleet
  siteforge render --check -o rendered examples/fleet
  siteforge render --stdout examples/agent-sno`,
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
				opts := generators.Options{Strict: *strict}
				defer fleetGC()() // the same allocation profile as lint (fleetGCPercent)
				switch {
				case *stdout:
					return renderStdout(e, args, opts)
				case *check:
					return renderCheck(e, args, opts, *out)
				}
				return renderDir(e, args, opts, *out)
			}
		},
	})
}

// renderStdout writes every site's resources as one stream, only when every
// site rendered (an empty or partial stream with pruning deletes objects).
func renderStdout(e env, paths []string, opts generators.Options) int {
	streams := map[int][]byte{}
	var mu sync.Mutex
	run, err := eachSite(paths, opts, func(i int, o *generators.Output) error {
		mu.Lock()
		streams[i] = o.Stream()
		mu.Unlock()
		return nil
	})
	if !finish(e, run, err) {
		return ExitFailure
	}
	var b bytes.Buffer
	for _, i := range sortedIndexes(streams) {
		b.Write(streams[i])
	}
	if _, err := e.stdout.Write(b.Bytes()); err != nil {
		fmt.Fprintf(e.stderr, "siteforge render: %s\n", diag.Clean(err.Error()))
		return ExitFailure
	}
	return ExitOK
}

// writersPerCPU sizes the pool that writes staged sites to disk.
const writersPerCPU = 4

// renderDir stages every site inside DIR as it renders, then swaps them all
// in; on any failure, and on SIGINT or SIGTERM, nothing in DIR changes.
func renderDir(e env, paths []string, opts generators.Options, dir string) int {
	units, diags := load.Discover(paths)
	files, dirs := load.InputPaths(units)
	if err := output.CheckNotInput(dir, files, dirs); err != nil {
		fmt.Fprintf(e.stderr, "siteforge render: -o %s: %s\n", diag.Clean(dir), diag.Clean(err.Error()))
		return ExitFailure
	}
	// An abort (signal, watchdog) drops the stage and what PrepareDir
	// made, unless the commit already completed. It is registered before
	// either exists: an abort while they are made waits for them, then
	// removes them.
	var (
		setupMu sync.Mutex
		aborted bool
		stage   *output.Stage
		undo    = func() {}
	)
	unregister := guard.OnAbort(func() bool {
		setupMu.Lock()
		defer setupMu.Unlock()
		aborted = true
		if stage != nil && !stage.Abort() {
			return false
		}
		undo()
		return true
	})
	defer unregister()
	// Should the process crash, its supervisor recovers the stage and
	// removes the folders made for it (guard.Supervise).
	guard.AnnounceCreated(output.MissingFolders(dir))
	guard.Announce(dir, output.StagePrefix)
	setupMu.Lock()
	err := output.ErrInterrupted
	if !aborted {
		undo, err = output.PrepareDir(dir)
	}
	if err == nil {
		if stage, err = output.NewStage(dir); err != nil {
			undo()
		}
	}
	setupMu.Unlock()
	if err != nil {
		fmt.Fprintf(e.stderr, "siteforge render: -o %s: %s\n", diag.Clean(dir), diag.Clean(err.Error()))
		return ExitFailure
	}
	// However the run ends short of the commit (an error, a panic on its
	// way to Main), the stage goes and the output stays as it was.
	committed := false
	defer func() {
		if !committed && stage.Abort() {
			undo()
		}
	}()
	// Writing is I/O-bound: a pool of writers larger than the CPU workers
	// keeps the disk busy while sites evaluate; the queue bounds memory.
	type job struct {
		i    int
		site output.Site
		line string
	}
	queue := make(chan job, 2*runtime.GOMAXPROCS(0))
	lines := map[int]string{}
	var mu sync.Mutex
	var writeErr error
	var writers guard.Group
	for w := 0; w < writersPerCPU*runtime.GOMAXPROCS(0); w++ {
		writers.Go(func() {
			for j := range queue {
				err := stage.Add(j.site)
				mu.Lock()
				if err != nil && writeErr == nil {
					writeErr = err
				}
				lines[j.i] = j.line
				mu.Unlock()
			}
		})
	}
	cache := newRenderCache(dir, units, opts)
	hubs := &hubDelivery{}
	// A site the digest cache vouches for keeps its folder as it is.
	unchanged := func(i int, r cacheHit) {
		stage.Keep(r.Name, r.folder)
		hubs.kept(dir, r)
		mu.Lock()
		lines[i] = fmt.Sprintf("unchanged %s -> %s (%d files)", diag.SafeLine(units[i].Source()), diag.Clean(filepath.Join(dir, r.Name)), len(r.Files))
		mu.Unlock()
	}
	run, err := func() (siteRun, error) {
		// The queue is closed however the sites end (a panic included), so
		// the writers finish before the panic goes on.
		defer close(queue)
		return eachUnitCached(units, diags, verdict.Options{Render: opts}, cache, unchanged, func(i int, o *generators.Output) error {
			mu.Lock()
			werr := writeErr
			mu.Unlock()
			if werr != nil {
				return werr
			}
			cache.store(i, o)
			if err := hubs.rendered(o); err != nil {
				return err
			}
			select {
			case queue <- job{i: i, site: output.Site{Name: o.Site.Name, Files: o.Files},
				line: fmt.Sprintf("rendered %s -> %s (%d files)", diag.SafeLine(o.Site.Source), diag.Clean(filepath.Join(dir, o.Site.Name)), len(o.Files))}:
			case <-writers.Done():
				return errWritersStopped
			}
			return nil
		})
	}()
	writers.Wait()
	if err == nil {
		err = writeErr
	}
	if !finish(e, run, err) {
		return ExitFailure
	}
	hub, ok := hubs.files(e, run)
	if !ok {
		return ExitFailure
	}
	if hub.Name != "" {
		if err := stage.Add(hub); err != nil {
			fmt.Fprintf(e.stderr, "siteforge render: -o %s: %s\n", diag.Clean(dir), diag.Clean(err.Error()))
			return ExitFailure
		}
		lines[len(units)] = fmt.Sprintf("rendered hub policies -> %s (%d files)", diag.Clean(filepath.Join(dir, hub.Name)), len(hub.Files))
	}
	if err := stage.Commit(); err != nil {
		fmt.Fprintf(e.stderr, "siteforge render: -o %s: %s\n", diag.Clean(dir), diag.Clean(err.Error()))
		return ExitFailure
	}
	committed = true
	for _, i := range sortedIndexes(lines) {
		fmt.Fprintln(e.stdout, lines[i])
	}
	return ExitOK
}

var errWritersStopped = errors.New("the output writers stopped")

// renderCheck compares DIR with what render would write.
func renderCheck(e env, paths []string, opts generators.Options, dir string) int {
	diffs := map[int][]string{}
	var mu sync.Mutex
	units, ldiags := load.Discover(paths)
	// A site the digest cache vouches for has nothing to report: a record
	// in the user's cache (never in DIR, which a commit writes) says its
	// inputs render to exactly the files its folder holds. A site rendered
	// here leaves its record for the next run.
	cache := newRenderCache(dir, units, opts)
	hubs := &hubDelivery{}
	kept := func(i int, r cacheHit) { hubs.kept(dir, r) }
	run, err := eachUnitCached(units, ldiags, verdict.Options{Render: opts}, cache, kept, func(i int, o *generators.Output) error {
		cache.store(i, o)
		if err := hubs.rendered(o); err != nil {
			return err
		}
		d, err := output.Diff(dir, output.Site{Name: o.Site.Name, Files: o.Files})
		if err != nil {
			return err
		}
		mu.Lock()
		diffs[i] = d
		mu.Unlock()
		return nil
	})
	if !finish(e, run, err) {
		return ExitFailure
	}
	hub, ok := hubs.files(e, run)
	if !ok {
		return ExitFailure
	}
	if hub.Name != "" {
		d, err := output.Diff(dir, hub)
		if err != nil {
			fmt.Fprintf(e.stderr, "siteforge render: %s\n", diag.Clean(err.Error()))
			return ExitFailure
		}
		diffs[len(units)] = d
	}
	n := 0
	// A render killed there (kill -9) left its stage, and maybe half its
	// swaps: the next render rolls it back; until then the output is not
	// what a render writes.
	for _, st := range output.StaleStages(dir) {
		fmt.Fprintf(e.stdout, "interrupted %s\n", diag.Clean(st))
		n++
	}
	for _, i := range sortedIndexes(diffs) {
		for _, d := range diffs[i] {
			fmt.Fprintln(e.stdout, diag.Clean(d))
			n++
		}
	}
	if n == 0 {
		fmt.Fprintf(e.stdout, "%s is up to date\n", diag.SafeLine(dir))
		return ExitOK
	}
	cmd := []string{"siteforge", "render", "-o", dir}
	if opts.Strict {
		cmd = append(cmd, "--strict")
	}
	cmd = append(cmd, paths...)
	fmt.Fprintf(e.stderr, "%s is not up to date (%d files differ): run %s\n", diag.SafeLine(dir), n, diag.Clean(shellJoin(cmd)))
	return ExitFindings
}

// shellJoin quotes words for a POSIX shell, so a printed command can be
// copied and run as it is.
func shellJoin(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		if w != "" && strings.IndexFunc(w, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
		}) < 0 {
			out[i] = w
			continue
		}
		out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}

// finish prints a run's warnings and problems and tells whether it succeeded.
func finish(e env, run siteRun, err error) bool {
	res := load.Result{Diagnostics: run.Diagnostics, Sources: run.Sources}
	for _, n := range run.Notes {
		fmt.Fprintln(e.stderr, n)
	}
	// A warning from shared fleet defaults is the same for every site:
	// print it once.
	var warnings diag.List
	for _, w := range run.Warnings {
		warnings = append(warnings, w...)
	}
	printWarnings(e.stderr, res, warnings.Sort())
	printSuppressed(e.stderr, run)
	if err != nil {
		fmt.Fprintf(e.stderr, "siteforge: %s\n", diag.Clean(err.Error()))
		return false
	}
	if !printDiagnostics(e.stderr, res) {
		return true
	}
	printSkipped(e.stderr, run.Skipped)
	return false
}

// printSkipped says which checks did not run on which site, and why (a
// site that does not load is not rendered, one that does not render is not
// linted), so the errors shown are known not to be all.
func printSkipped(w io.Writer, skipped []string) {
	for _, s := range skipped {
		if s != "" {
			fmt.Fprintf(w, "note: %s\n", diag.Clean(s))
		}
	}
}

func sortedIndexes[V any](m map[int]V) []int {
	idx := make([]int, 0, len(m))
	for i := range m {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	return idx
}

// usageError prints a usage problem: msg can quote an argument, so it is
// diag.Clean.
func usageError(e env, verb, msg string) int {
	fmt.Fprintf(e.stderr, "siteforge %s: %s\nusage: siteforge %s %s\n", verb, diag.Clean(msg), verb, commands[verb].args)
	return ExitFailure
}

// renderAll loads and renders every site and returns the outputs in input
// order (for lint and mirrors, which need them all); it prints every
// problem and reports whether all sites rendered.
func renderAll(e env, paths []string, opts generators.Options) ([]*generators.Output, bool) {
	outs := map[int]*generators.Output{}
	var mu sync.Mutex
	run, err := eachSite(paths, opts, func(i int, o *generators.Output) error {
		mu.Lock()
		outs[i] = o
		mu.Unlock()
		return nil
	})
	if !finish(e, run, err) {
		return nil, false
	}
	var list []*generators.Output
	for _, i := range sortedIndexes(outs) {
		list = append(list, outs[i])
	}
	return list, true
}

// printSuppressed says how many render warnings the sites' suppressions
// dropped (once each, as printWarnings), so none is dropped silently.
func printSuppressed(w io.Writer, run siteRun) {
	var all diag.List
	for _, l := range run.Suppressed {
		all = append(all, l...)
	}
	if n := len(all.Sort()); n > 0 {
		fmt.Fprintf(w, "siteforge: %d warning%s suppressed (lint: suppress or @lint(ignore=...) in the site, each with its reason)\n", n, plural(n))
	}
}

func printWarnings(w io.Writer, res load.Result, warnings diag.List) {
	p := printer(res)
	for _, d := range warnings {
		fmt.Fprint(w, p.FormatSeverity(d, "warning"))
	}
}
