package cli

import (
	"fmt"
	"io"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
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
