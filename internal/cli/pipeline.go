package cli

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
)

// loaderReuse bounds how many sites one CUE context evaluates before it is
// replaced: a context keeps what it evaluated, so memory stays bounded by
// the number of workers, not the fleet size.
const loaderReuse = 128

// siteRun is what eachSite reports of all sites.
type siteRun struct {
	Diagnostics diag.List
	Warnings    []diag.List // by site index, for sites that rendered
	Sources     map[string][]byte
}

// eachSite loads and renders every site under paths on GOMAXPROCS workers,
// one CUE context per worker, and calls use for each site that rendered
// (concurrently, with the site's index in input order). Of two sites with
// one name only one is passed to use. An error from use or an
// internal error stops the run.
func eachSite(paths []string, opts generators.Options, use func(i int, o *generators.Output) error) (siteRun, error) {
	return eachSiteDo(paths, &opts, use)
}

// eachLoaded is eachSite without rendering (vet): use gets an Output that
// holds only the site.
func eachLoaded(paths []string, use func(i int, o *generators.Output) error) (siteRun, error) {
	return eachSiteDo(paths, nil, use)
}

func eachSiteDo(paths []string, opts *generators.Options, use func(i int, o *generators.Output) error) (siteRun, error) {
	units, diags := load.Discover(paths)
	run := siteRun{Sources: map[string][]byte{}, Warnings: make([]diag.List, len(units))}
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
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), max(len(units), 1))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var l *load.Loader
			used := 0
			for i := range jobs {
				if l == nil || used == loaderReuse {
					var err error
					if l, err = load.New(); err != nil {
						mu.Lock()
						firstErr = err
						mu.Unlock()
						return
					}
					used = 0
				}
				used++
				sources := map[string][]byte{}
				s, d := l.LoadUnit(units[i], sources)
				var out *generators.Output
				if s != nil && opts == nil {
					out = &generators.Output{Site: s}
				} else if s != nil {
					o, err := generators.Render(s, *opts)
					if dl, ok := err.(diag.List); ok {
						d = append(d, dl...)
					} else if err != nil {
						mu.Lock()
						firstErr = fmt.Errorf("site %s: %w", s.Name, err)
						mu.Unlock()
						continue
					} else {
						out = o
					}
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
		}()
	}
	for i := range units {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
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
