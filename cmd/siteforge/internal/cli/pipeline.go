package cli

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/guard"
	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/lint"
)

// testHookSite, when set by a test, runs in the worker for each loaded site
// (to force a panic there).
var testHookSite func(name string)

// loaderReuse bounds how many sites one CUE context evaluates before it is
// replaced: a context keeps what it evaluated, so memory stays bounded by
// the number of workers, not the fleet size, and a context that keeps too
// much evaluates slower (3,500 sites, tmpfs, 2 cores: 26-28 s with one
// context per worker for the whole run, 4.5-4.9 s replaced every 128
// sites). Every 32 sites costs about the same CPU (a new context compiles
// the schema in about 1 ms) and keeps the live heap about 40% smaller
// (peak RSS 116-127 MiB against 198-205 MiB for 1,000 sites).
const loaderReuse = 32

// siteRun is what eachSite reports of all sites.
type siteRun struct {
	Diagnostics diag.List
	Warnings    []diag.List // by site index, for sites that rendered
	// Suppressed are the render warnings the sites suppress, by site index.
	Suppressed []diag.List
	Sources    map[string][]byte
	// Notes name the fleet-root files that were not fleet defaults.
	Notes []string
}

// eachSite loads and renders every site under paths on GOMAXPROCS workers,
// one CUE context per worker, and calls use for each site that rendered
// (concurrently, with the site's index in input order). Of two sites with
// one name only one is passed to use. An error from use or an
// internal error stops the run.
func eachSite(paths []string, opts generators.Options, use func(i int, o *generators.Output) error) (siteRun, error) {
	units, diags := load.Discover(paths)
	return eachUnit(units, diags, &opts, use)
}

// eachLoaded is eachSite without rendering (vet): use gets an Output that
// holds only the site.
func eachLoaded(paths []string, use func(i int, o *generators.Output) error) (siteRun, error) {
	units, diags := load.Discover(paths)
	return eachUnit(units, diags, nil, use)
}

// eachUnit is eachSite over units already discovered (diags: discovery's
// problems); opts nil loads without rendering.
func eachUnit(units []load.Unit, diags diag.List, opts *generators.Options, use func(i int, o *generators.Output) error) (siteRun, error) {
	return eachUnitCached(units, diags, opts, nil, nil, use)
}

// eachUnitCached is eachUnit with render's digest cache: a unit whose
// record the cache vouches for is not loaded; hit gets its record instead
// of use getting an output (its name takes part in the duplicate check, its
// recorded warnings are the run's).
func eachUnitCached(units []load.Unit, diags diag.List, opts *generators.Options, cache *renderCache, hit func(i int, r cacheHit), use func(i int, o *generators.Output) error) (siteRun, error) {
	run := siteRun{Sources: map[string][]byte{}, Warnings: make([]diag.List, len(units)), Suppressed: make([]diag.List, len(units)), Notes: load.IgnoredNotes(units)}
	// Only the name of a loaded site is kept (for the duplicate check), so
	// memory does not grow with the fleet.
	type done struct {
		loaded  bool
		name    string
		namePos diag.Position
		diags   diag.List
	}
	results := make([]done, len(units))
	var (
		mu       sync.Mutex
		firstErr error
		claimed  = map[string]bool{} // site names passed to use
	)
	jobs := make(chan int)
	// A panic in a worker stops the feeding below and is re-raised by
	// Wait, in this goroutine: the caller's recovery point makes it exit 2.
	var g guard.Group
	workers := min(runtime.GOMAXPROCS(0), max(len(units), 1))
	for w := 0; w < workers; w++ {
		g.Go(func() {
			var l *load.Loader
			used := 0
			for i := range jobs {
				if cache != nil {
					if r, ok := cache.lookup(i, units[i]); ok {
						mu.Lock()
						results[i] = done{loaded: true, name: r.Name, namePos: r.NamePos}
						dup := claimed[r.Name]
						claimed[r.Name] = true
						run.Warnings[i] = r.Warnings
						run.Suppressed[i] = r.Suppressed
						stop := firstErr != nil
						mu.Unlock()
						if hit != nil && !dup && !stop {
							hit(i, r)
						}
						continue
					}
				}
				if l == nil || used == loaderReuse {
					var err error
					if l, err = load.New(); err != nil {
						// keep draining jobs: the feeder must never block
						mu.Lock()
						firstErr = err
						mu.Unlock()
						l = nil
						continue
					}
					used = 0
				}
				used++
				sources := map[string][]byte{}
				s, out, d, err := loadAndRender(l, units[i], sources, opts)
				if err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					continue
				}
				mu.Lock()
				results[i] = done{diags: d}
				if s != nil {
					results[i] = done{loaded: true, name: s.Name, namePos: s.Positions.Of("name"), diags: d}
				}
				if len(d) > 0 {
					for f, b := range sources {
						run.Sources[f] = b
					}
				}
				dup := false
				if out != nil {
					// A duplicate name fails the run (reported below, in
					// input order); only one of the sites reaches use.
					dup = claimed[s.Name]
					claimed[s.Name] = true
					run.Warnings[i] = out.Warnings
					run.Suppressed[i] = out.Suppressed
				}
				stop := firstErr != nil
				mu.Unlock()
				if out != nil && !dup && !stop {
					if err := use(i, out); err != nil {
						mu.Lock()
						firstErr = err
						mu.Unlock()
					}
				}
			}
		})
	}
feed:
	for i := range units {
		select {
		case jobs <- i:
		case <-g.Done():
			break feed
		}
	}
	close(jobs)
	g.Wait()
	if firstErr != nil {
		return run, firstErr
	}
	run.Diagnostics = diags
	var names load.Names
	for _, r := range results {
		run.Diagnostics = append(run.Diagnostics, r.diags...)
		if r.loaded {
			run.Diagnostics = append(run.Diagnostics, names.AddName(r.name, r.namePos)...)
		}
	}
	run.Diagnostics = run.Diagnostics.Sort()
	return run, nil
}

// loadAndRender loads one unit and, with opts, renders it; the watchdog
// watches both. Problems in the site are in d; err is an internal error.
func loadAndRender(l *load.Loader, u load.Unit, sources map[string][]byte, opts *generators.Options) (*site.Site, *generators.Output, diag.List, error) {
	defer guard.Track(u.Source())()
	s, d := l.LoadUnit(u, sources)
	if s == nil {
		return nil, nil, d, nil
	}
	if testHookSite != nil {
		testHookSite(s.Name)
	}
	unknown := unknownSuppressions(s)
	if opts == nil {
		return s, &generators.Output{Site: s, Warnings: unknown}, d, nil
	}
	if opts.Strict && len(unknown) > 0 {
		return s, nil, append(d, unknown...), nil
	}
	o, err := generators.Render(s, *opts)
	if dl, ok := err.(diag.List); ok {
		return s, nil, append(d, dl...), nil
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("site %s: %w", s.Name, err)
	}
	o.Warnings = append(o.Warnings, unknown...).Sort()
	return s, o, d, nil
}

// unknownSuppressions are the site's suppressions of IDs that are no rule
// (lint reports them as LNT003): they suppress nothing, which render and
// vet say too, so a typo does not pass for a suppression.
func unknownSuppressions(s *site.Site) diag.List {
	var out diag.List
	warn := func(d diag.Diagnostic, id string) {
		d.Message = fmt.Sprintf("the suppression names %s, which is no rule: it suppresses nothing", id)
		d.Hint = "use a rule ID that siteforge explain lists"
		d.Rule = lint.RuleUnknownRule
		out = append(out, d)
	}
	if s.Lint != nil {
		for i, sup := range s.Lint.Suppress {
			if lint.Lookup(sup.Rule) == nil {
				warn(s.At(site.FieldPath("lint", "suppress", i, "rule"), "", ""), sup.Rule)
			}
		}
	}
	for _, f := range s.FieldSuppressions {
		if lint.Lookup(f.Rule) == nil {
			warn(diag.Diagnostic{Pos: f.Pos, Path: f.Path}, f.Rule)
		}
	}
	return out
}
