package early

import (
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestImportsOnlyTheRuntimesDependencies: the package is initialised right
// after os/signal only as long as it imports nothing that initialises
// later (see the package comment; e2e TestSignalWhileStartingExits2
// measures it).
func TestImportsOnlyTheRuntimesDependencies(t *testing.T) {
	allowed := map[string]bool{"os": true, "os/signal": true, "sync": true, "syscall": true}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), e.Name(), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); !allowed[p] {
				t.Errorf("%s imports %s: package early must initialise before siteforge's dependencies", e.Name(), p)
			}
		}
	}
}
