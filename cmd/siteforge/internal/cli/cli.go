// Package cli is siteforge's command line: thin adapters from verbs and flags
// to the pure core.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/guard"
	"github.com/siteforge/siteforge/internal/diag"
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

type command struct {
	name    string
	args    string // usage after the verb
	summary string
	help    string // longer text
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
// command starts reaches it (guard.Group) and becomes exit 2.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	e := env{stdin: stdin, stdout: stdout, stderr: stderr}
	defer func() {
		if p := guard.Recovered(recover()); p != nil {
			fmt.Fprint(stderr, guard.InternalError(p))
			code = ExitFailure
		}
	}()
	if len(args) == 0 {
		usage(stderr)
		return ExitFailure
	}
	verb, rest := args[0], args[1:]
	switch verb {
	case "help", "-h", "--help":
		if len(rest) > 0 {
			c, ok := commands[rest[0]]
			if !ok {
				fmt.Fprintf(stderr, "siteforge: unknown command %s\n", `"`+diag.Clean(rest[0])+`"`)
				return ExitFailure
			}
			commandHelp(stdout, c, nil)
			return ExitOK
		}
		usage(stdout)
		return ExitOK
	case "--version", "-V":
		verb = "version"
	}
	c, ok := commands[verb]
	if !ok {
		fmt.Fprintf(stderr, "siteforge: unknown command %s\n", `"`+diag.Clean(verb)+`"`)
		if s := suggestCommand(verb); s != "" {
			fmt.Fprintf(stderr, "did you mean %q?\n", s)
		}
		fmt.Fprintln(stderr, "run 'siteforge help' for the list of commands")
		return ExitFailure
	}
	fs := pflag.NewFlagSet("siteforge "+c.name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = true
	run := c.flags(fs)
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			commandHelp(stdout, c, fs)
			return ExitOK
		}
		// pflag's message quotes the argument as given
		fmt.Fprintf(stderr, "siteforge %s: %s\n", c.name, diag.Clean(err.Error()))
		fmt.Fprintf(stderr, "usage: siteforge %s %s\n", c.name, c.args)
		return ExitFailure
	}
	return run(e, fs.Args())
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "siteforge compiles OpenShift site descriptions into manifests and lints them.")
	fmt.Fprintln(w, "\nusage: siteforge <command> [flags] [args]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	width := 10
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s %s\n", width, n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nexit codes: 0 clean, 1 findings at or above --fail-on, 2 the tool could not do its job")
	fmt.Fprintln(w, "run 'siteforge help <command>' for a command's flags")
}

func commandHelp(w io.Writer, c *command, fs *pflag.FlagSet) {
	if fs == nil {
		fs = pflag.NewFlagSet(c.name, pflag.ContinueOnError)
		c.flags(fs)
	}
	fmt.Fprintf(w, "usage: siteforge %s %s\n\n%s\n", c.name, c.args, c.summary)
	if c.help != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.help))
	}
	if fs.HasFlags() {
		fmt.Fprintf(w, "\nflags:\n%s", fs.FlagUsages())
	}
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
