package cli

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/lint/report"
)

// exitCode is a verb's outcome other than success, as cobra's error: the
// verb printed what it had to say, the process exits with the code.
type exitCode int

func (c exitCode) Error() string { return fmt.Sprintf("exit status %d", int(c)) }

// usageErr is a command line cobra or pflag refused (an unknown flag, a
// missing flag value): printed with the verb's usage line, exit 2.
type usageErr struct {
	cmd *cobra.Command
	msg string
}

func (u *usageErr) Error() string { return u.msg }

// unknownCommandErr is a verb siteforge does not have.
type unknownCommandErr struct{ verb string }

func (u *unknownCommandErr) Error() string { return "unknown command " + u.verb }

const rootLong = `siteforge compiles OpenShift site descriptions into manifests and lints them.

Exit codes: 0 clean, 1 findings at or above --fail-on, 2 the tool could not do
its job (bad usage, unreadable or invalid input, an internal error).`

// newRoot is the command tree: one cobra command per registered verb, its
// flags bound by the verb's flags function, plus cobra's help and
// completion. Output goes to e; errors come back to Main as exitCode,
// usageErr or unknownCommandErr, printed by exitOf.
func newRoot(e env) *cobra.Command {
	root := &cobra.Command{
		Use:           "siteforge",
		Short:         "compile OpenShift sites into manifests, lint sites and GitOps repositories",
		Long:          rootLong,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return &unknownCommandErr{verb: args[0]}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if v, _ := cmd.Flags().GetBool("version"); v {
				return exitCode(printVersion(e, "text"))
			}
			fmt.Fprint(e.stderr, cmd.UsageString())
			return exitCode(ExitFailure)
		},
	}
	root.Flags().BoolP("version", "V", false, "print the version (as siteforge version)")
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &usageErr{cmd: c, msg: err.Error()}
	})
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		root.AddCommand(verbCommand(e, commands[n]))
	}
	root.SetHelpCommand(helpCommand())
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			// cobra prints the help and exits 0 for a shell it does not
			// know: bad usage here, exit 2
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(c *cobra.Command, args []string) error {
				if len(args) > 0 {
					return &usageErr{cmd: c, msg: fmt.Sprintf("unknown shell \"%s\" (bash, zsh, fish, powershell)", args[0])}
				}
				return c.Help()
			}
		}
	}
	return root
}

// verbCommand is the cobra command of one verb.
func verbCommand(e env, c *command) *cobra.Command {
	long := c.summary
	if c.help != "" {
		long += "\n\n" + strings.TrimSpace(c.help)
	}
	use := c.name
	if c.args != "" {
		use += " " + c.args
	}
	cc := &cobra.Command{
		Use:     use,
		Short:   c.summary,
		Long:    long,
		Example: c.example,
	}
	cc.Flags().SortFlags = true
	run := c.flags(cc.Flags())
	for flag, values := range flagValues[c.name] {
		_ = cc.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
	}
	if c.name == "mirrors" {
		cc.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) == 0 {
				return []cobra.Completion{"preview", "resolve"}, cobra.ShellCompDirectiveNoFileComp
			}
			return nil, cobra.ShellCompDirectiveDefault
		}
	}
	cc.RunE = func(_ *cobra.Command, args []string) error {
		if code := run(e, args); code != ExitOK {
			return exitCode(code)
		}
		return nil
	}
	return cc
}

// flagValues are the values shell completion offers for a verb's flags.
var flagValues = map[string]map[string][]string{
	"lint":    {"format": report.Names(), "fail-on": {"error", "warning", "info"}},
	"impact":  {"format": {"text", "json", "markdown"}, "fail-on": {"reboot", "drain"}},
	"vet":     {"format": {"text", "json"}},
	"mtu":     {"format": {"text", "json"}},
	"mirrors": {"format": {"text", "json"}},
	"explain": {"format": {"text", "json"}},
	"version": {"format": {"text", "json"}},
}

// helpCommand is cobra's help command, except that an unknown topic is an
// unknown command (exit 2), as it is without help.
func helpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "Help provides help for any command in the application.\nSimply type siteforge help [path to command] for full details.",
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			var names []cobra.Completion
			cmd, _, err := c.Root().Find(args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			for _, sub := range cmd.Commands() {
				if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
					names = append(names, cobra.CompletionWithDesc(sub.Name(), sub.Short))
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			target, rest, err := c.Root().Find(args)
			if err != nil {
				return err
			}
			if len(rest) > 0 {
				return &unknownCommandErr{verb: rest[0]}
			}
			target.InitDefaultHelpFlag()
			return target.Help()
		},
	}
}

// exitOf prints what an error from the command tree means and returns the
// exit code.
func exitOf(e env, err error) int {
	var code exitCode
	var usage *usageErr
	var unknown *unknownCommandErr
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &code):
		return int(code)
	case errors.As(err, &unknown):
		fmt.Fprintf(e.stderr, "siteforge: unknown command %s\n", `"`+diag.Clean(unknown.verb)+`"`)
		if s := suggestCommand(unknown.verb); s != "" {
			fmt.Fprintf(e.stderr, "did you mean %q?\n", s)
		}
		fmt.Fprintln(e.stderr, "run 'siteforge help' for the list of commands")
	case errors.As(err, &usage):
		// pflag's message quotes the argument as given
		path := usage.cmd.CommandPath()
		fmt.Fprintf(e.stderr, "%s: %s\n", path, diag.Clean(usage.msg))
		if c, ok := commands[usage.cmd.Name()]; ok && usage.cmd.Parent() == usage.cmd.Root() {
			fmt.Fprintf(e.stderr, "usage: siteforge %s %s\n", c.name, c.args)
		} else {
			fmt.Fprintf(e.stderr, "run '%s --help' for usage\n", path)
		}
	default:
		fmt.Fprintf(e.stderr, "siteforge: %s\n", diag.Clean(err.Error()))
	}
	return ExitFailure
}

// Command is siteforge's command tree on the process's standard streams,
// for tools that read it (the man page generator); Main runs it.
func Command() *cobra.Command {
	return newRoot(env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr})
}
