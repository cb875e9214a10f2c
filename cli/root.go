package cli

import (
	"context"
	"errors"
	"io"

	"github.com/spf13/cobra"
)

// NewRootCommand builds mcpscope's command tree. Output goes to the
// command's Out and Err writers (cmd.SetOut, cmd.SetErr).
func NewRootCommand() *cobra.Command {
	f := &runFlags{}
	root := &cobra.Command{
		Use:   "mcpscope",
		Short: "A terminal client and debugger for Model Context Protocol servers",
		Long: "mcpscope connects to an MCP server, drives it (tools, resources, prompts, raw JSON-RPC)\n" +
			"and shows every byte that crosses the wire.\n\n" +
			"TARGET is a URL (http[s]://, ws[s]://, wt://host:port/path, unix:///path.sock[#/path]),\n" +
			"the NAME of a server in an MCP config file (mcpscope servers lists them) or, last on the\n" +
			"line, -- CMD [ARGS…] to start a stdio server. With a TARGET and no command, mcpscope opens\n" +
			"its TUI connected to it; mcpscope demo opens it on the embedded demo server.",
		Example: "  mcpscope demo\n" +
			"  mcpscope -- npx -y @modelcontextprotocol/server-everything stdio\n" +
			"  mcpscope tools -- npx -y @modelcontextprotocol/server-everything stdio\n" +
			"  mcpscope call tools/call '{\"name\":\"echo\",\"arguments\":{\"message\":\"hi\"}}' -- ./server",
		Version:       Version(),
		Args:          cobra.ArbitraryArgs,
		SilenceErrors: true,
		SilenceUsage:  true,
		RunE:          func(cmd *cobra.Command, args []string) error { return runRoot(cmd, args, f) },
	}
	f.register(root.Flags())
	root.SetVersionTemplate("mcpscope {{.Version}}\n")
	root.SuggestionsMinimumDistance = 2
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &UsageError{Err: err} })
	root.AddCommand(
		newCallCommand(),
		newToolCommand(),
		newPromptCommand(),
		newReadCommand(),
		newStreamCommand(),
		newScriptCommand(),
		newListCommand("tools", "List the server's tools (all pages)", listTools),
		newListCommand("resources", "List the server's resources and resource templates (all pages)", listResources),
		newListCommand("prompts", "List the server's prompts (all pages)", listPrompts),
		newSkillsCommand(),
		newVersionCommand(),
		newServeCommand(),
		newDemoCommand(),
		newReplayCommand(),
		newExportCommand(),
		newServersCommand(),
		newDoctorCommand(),
		newAuthCommand(),
		newProxyCommand(),
		newWrapCommand(),
		newUnwrapCommand(),
		newAttachCommand(),
		newLintCommand(),
		newBenchCommand(),
		newMockCommand(),
	)
	arrangeFlags(root)
	root.SetUsageTemplate(groupedUsageTemplate(root.UsageTemplate()))
	return root
}

// runRoot opens the picker of configured servers without arguments (the
// help when there are none), explains an unknown command,
// and opens the TUI for a TARGET.
func runRoot(cmd *cobra.Command, args []string, f *runFlags) error {
	if len(args) == 0 {
		return runServerPicker(cmd, f)
	}
	if cmd.ArgsLenAtDash() != 0 && !urlPrefix.MatchString(args[0]) && !schemeNoColon.MatchString(args[0]) {
		var serverErr error
		if len(args) == 1 {
			t, found, err := f.serverTarget(cmd, args[0])
			if found {
				if err != nil {
					return err
				}
				return runTUI(cmd, f, t, nil)
			}
			if shape := targetShape(cmd, nil, args[0]); shape != nil {
				return shape
			}
			serverErr = err
		}
		msg := "unknown command " + quote(args[0])
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			msg += "; did you mean " + quote(s[0]) + "?"
		} else if serverErr != nil {
			return serverErr
		} else {
			msg += "; run mcpscope --help for the commands, mcpscope servers for the configured servers"
		}
		return usagef("%s", msg)
	}
	return runRootTUI(cmd, args, f)
}

// noArgs rejects positional arguments as a usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("%s takes no arguments, got %q", cmd.CommandPath(), args[0])
	}
	return nil
}

// Execute runs mcpscope with args (without the program name) and returns
// the exit code. The result goes to stdout; errors, warnings, traces and
// progress go to stderr.
//
// The tree runs on plain cobra rather than through charm's fang: fang's help
// renderer moves every [optional] group of a usage line to its end, which
// turns "call METHOD [PARAMS_JSON] TARGET" into a wrong synopsis for a
// command whose TARGET must come last, and it pads piped help with spaces
// to the terminal's width.
func Execute(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := NewRootCommand()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	switch {
	case errors.Is(err, errStoppedAsMeant):
		err = nil
	case interrupted(ctx):
		// Whatever the interruption made the command fail with, or even if
		// it wound down cleanly (the TUI), the run was interrupted.
		err = ErrInterrupted
	}
	if err != nil {
		printError(stderr, err)
	}
	return ExitCode(err)
}

// streamsOf returns the streams of a command.
func streamsOf(cmd *cobra.Command) streams {
	out := cmd.OutOrStdout()
	return streams{
		in:     cmd.InOrStdin(),
		out:    out,
		diag:   &lineWriter{w: cmd.ErrOrStderr()},
		pretty: isTerminal(out),
		text:   isTerminal(out) && printsResult(cmd.Name()),
	}
}
