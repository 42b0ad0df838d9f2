package cli

import (
	"runtime"
	"sync"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/guard"
	"github.com/siteforge/siteforge/cmd/siteforge/internal/verdict"
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
	// Lint are the lint rules' findings on each site, by site index, in
	// lint's mode (verdict.Options.Findings).
	Lint []lint.Result
	// Skipped say which checks did not run on which site, and why.
	Skipped []string
	Sources map[string][]byte
	// Notes name the fleet-root files that were not fleet defaults.
	Notes []string
}

// eachSite loads every site under paths and runs the one check pipeline
// on it (verdict.Site: render, then the lint rules on what it rendered) on
// GOMAXPROCS workers, one CUE context per worker, and calls use for each
// site that passed (concurrently, with the site's index in input order).
// Of two sites with one name only one is passed to use. An error from use
// or an internal error stops the run.
func eachSite(paths []string, opts generators.Options, use func(i int, o *generators.Output) error) (siteRun, error) {
	units, diags := load.Discover(paths)
	return eachUnit(units, diags, verdict.Options{Render: opts}, use)
}

// eachUnit is eachSite over units already discovered (diags: discovery's
// problems).
func eachUnit(units []load.Unit, diags diag.List, opts verdict.Options, use func(i int, o *generators.Output) error) (siteRun, error) {
	return eachUnitCached(units, diags, opts, nil, nil, use)
}

// eachUnitCached is eachUnit with render's digest cache: a unit whose
// record the cache vouches for is not loaded; hit gets its record instead
// of use getting an output (its name takes part in the duplicate check, its
// recorded warnings are the run's).
func eachUnitCached(units []load.Unit, diags diag.List, opts verdict.Options, cache *renderCache, hit func(i int, r cacheHit), use func(i int, o *generators.Output) error) (siteRun, error) {
	run := siteRun{Sources: map[string][]byte{}, Warnings: make([]diag.List, len(units)), Suppressed: make([]diag.List, len(units)),
		Lint: make([]lint.Result, len(units)), Skipped: make([]string, len(units)), Notes: load.IgnoredNotes(units)}
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
	// Each site is loaded from its files as read once (fleet defaults once
	// per run), and the cache digests those same bytes.
	inputs := newRunInputs()
	// One search per folder for the sites' repository, by the cache and
	// every loader of the run.
	origins := load.NewOrigins()
	if cache != nil {
		origins = cache.origins // what newRenderCache looked up already
	}
	// A panic in a worker stops the feeding below and is re-raised by
	// Wait, in this goroutine: the caller's recovery point makes it exit 2.
	var g guard.Group
	workers := min(runtime.GOMAXPROCS(0), max(len(units), 1))
	for w := 0; w < workers; w++ {
		g.Go(func() {
			var l *load.Loader
			used := 0
			for i := range jobs {
				files := inputs.read(units[i])
				if cache != nil {
					if r, ok := cache.lookup(i, units[i], files); ok {
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
					if l, err = load.New(); err == nil {
						l.SetOrigins(origins)
					} else {
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
				s, v, d, err := loadAndCheck(l, units[i], files.reader(), sources, opts)
				if err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					continue
				}
				out := v.Output
				mu.Lock()
				results[i] = done{diags: d}
				run.Skipped[i] = v.Skipped
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
					if !dup && v.Linted {
						run.Lint[i] = v.Lint
					}
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
			run.Diagnostics = append(run.Diagnostics, verdict.Ruled(names.AddName(r.name, r.namePos))...)
		}
	}
	run.Diagnostics = run.Diagnostics.Sort()
	return run, nil
}

// loadAndCheck loads one unit from its files as read and runs the check
// pipeline on it (verdict.Site); the watchdog watches both. Problems in the
// site are in d, each with its rule ID; err is an internal error.
func loadAndCheck(l *load.Loader, u load.Unit, read load.ReadFunc, sources map[string][]byte, opts verdict.Options) (*site.Site, verdict.Result, diag.List, error) {
	defer guard.Track(u.Source())()
	s, d := l.LoadUnitRead(u, sources, read)
	if s == nil {
		return nil, verdict.Result{Skipped: verdict.SkippedLoad(u.Source())}, verdict.Ruled(d), nil
	}
	if testHookSite != nil {
		testHookSite(s.Name)
	}
	v, err := verdict.Site(s, opts)
	if err != nil {
		return nil, v, nil, err
	}
	return s, v, append(verdict.Ruled(d), v.Errors...), nil
}
