package cli

import (
	"fmt"
	"io"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/guard"
	"github.com/siteforge/siteforge/cmd/siteforge/internal/verdict"
	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/lint"
)

// readStdin reads standard input for PATH "-", bounded as a file of the
// same kind is (docs/limits.md): at most limit bytes are read, and more is
// refused, never cut.
func readStdin(e env, verb string, limit int64, what string) ([]byte, bool) {
	if e.stdin == nil {
		return nil, true
	}
	data, err := io.ReadAll(io.LimitReader(e.stdin, limit+1))
	if err != nil {
		fmt.Fprintf(e.stderr, "siteforge %s: %s: error: cannot read: %s\n", verb, load.Stdin, diag.Clean(err.Error()))
		return nil, false
	}
	if int64(len(data)) > limit {
		fmt.Fprintf(e.stderr, "siteforge %s: %s: error: more than the %d-byte limit for %s\n", verb, load.Stdin, limit, what)
		return nil, false
	}
	return data, true
}

// stdinSite is eachSite for one site read from standard input (vet -):
// the same check pipeline (verdict.Site), positions at <stdin>:L:C.
func stdinSite(data []byte, opts verdict.Options, use func(i int, o *generators.Output) error) (siteRun, error) {
	run := siteRun{Sources: map[string][]byte{}, Warnings: make([]diag.List, 1), Suppressed: make([]diag.List, 1),
		Lint: make([]lint.Result, 1), Skipped: make([]string, 1)}
	l, err := load.New()
	if err != nil {
		return run, err
	}
	defer guard.Track(load.Stdin)()
	res := l.LoadStdin(data)
	run.Sources = res.Sources
	if len(res.Sites) == 0 {
		run.Diagnostics = verdict.Ruled(res.Diagnostics).Sort()
		run.Skipped[0] = verdict.SkippedLoad(load.Stdin)
		return run, nil
	}
	v, err := verdict.Site(res.Sites[0], opts)
	if err != nil {
		return run, err
	}
	run.Skipped[0] = v.Skipped
	run.Diagnostics = append(verdict.Ruled(res.Diagnostics), v.Errors...).Sort()
	if v.Output != nil {
		run.Warnings[0], run.Suppressed[0] = v.Output.Warnings, v.Output.Suppressed
		if v.Linted {
			run.Lint[0] = v.Lint
		}
		if err := use(0, v.Output); err != nil {
			return run, err
		}
	}
	return run, nil
}
