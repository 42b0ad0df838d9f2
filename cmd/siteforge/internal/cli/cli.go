// Package cli is siteforge's command line: thin adapters from verbs and flags
// to the pure core.
package cli

import (
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/spf13/pflag"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/guard"
	"github.com/siteforge/siteforge/internal/suggest"
)

// Exit codes, the same for every verb.
const (
	ExitOK       = 0 // clean
	ExitFindings = 1 // findings at or above --fail-on
	ExitFailure  = 2 // usage, unreadable or invalid input, internal error
)

// env is what a verb may touch.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// command is a verb: its flags are bound on the cobra command's flag set
// (flags returns the run function reading them), its work is the run
// function, which returns the exit code.
type command struct {
	name    string
	args    string // usage after the verb
	summary string
	help    string // longer text
	example string // cobra's Example: text
	flags   func(fs *pflag.FlagSet) func(e env, args []string) int
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// Process is the siteforge process: Main with the process-level guards (a
// SIGINT or SIGTERM aborts cleanly, a runaway site evaluation is stopped)
// and the exit that an abort in progress cannot overtake. It never returns.
func Process(args []string) {
	guard.HandleSignals()
	guard.StartWatchdog()
	guard.Exit(Main(args, os.Stdin, os.Stdout, os.Stderr))
}

// Main runs siteforge with args (without the program name) and returns the
// exit code. It is the one recovery point: a panic in any goroutine a
// command starts reaches it (guard.Group) and becomes exit 2. Parsing,
// help and completion are cobra's (root.go); each verb's work is its run
// function, which returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	e := env{stdin: stdin, stdout: stdout, stderr: stderr}
	defer func() {
		if p := guard.Recovered(recover()); p != nil {
			fmt.Fprint(stderr, guard.InternalError(p))
			code = ExitFailure
		}
	}()
	root := newRoot(e)
	if args == nil {
		args = []string{} // cobra reads os.Args for nil
	}
	root.SetArgs(args)
	return exitOf(e, root.Execute())
}

// suggestCommand returns the command nearest to a mistyped verb.
func suggestCommand(verb string) string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return suggest.Nearest(verb, names)
}
