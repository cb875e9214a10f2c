package cli

import (
	"github.com/spf13/cobra"
)

// replayFlags are the flags of `mcpscope replay`.
type replayFlags struct {
	run     runFlags // the connection flags of --against
	against bool
	ignore  []string
	junit   string
}

// newReplayCommand builds `mcpscope replay [FILE] [--against TARGET]`.
func newReplayCommand() *cobra.Command {
	f := &replayFlags{}
	cmd := &cobra.Command{
		Use:   "replay [FILE] [--against TARGET]",
		Short: "Open a recording in the TUI, or re-send its requests to a server and diff the answers",
		Long: "With FILE, replay opens the recording in the TUI: every pane as it was live.\n" +
			"Without FILE it lists the recent recordings to pick from.\n\n" +
			replayAgainstHelp,
		Example: "  mcpscope replay\n" +
			"  mcpscope replay session.mcpscope.jsonl\n" +
			"  mcpscope replay session.mcpscope.jsonl --against http://127.0.0.1:3000/mcp\n" +
			"  mcpscope replay session.mcpscope.jsonl --against -- node server.js\n" +
			"  mcpscope replay session.mcpscope.jsonl --against --ignore '$..bookingRef' https://example.com/mcp\n" +
			"  mcpscope replay session.mcpscope.jsonl --against --junit report.xml -- node server.js",
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.against {
				return runReplayAgainst(cmd, args, f)
			}
			if f.junit != "" {
				return usagef("--junit needs --against: it reports the answers a server gives again")
			}
			if len(args) > 1 {
				return usagef("replay takes one FILE; to re-send its requests to a server use --against TARGET")
			}
			file := ""
			if len(args) == 1 {
				file = args[0]
			}
			return runReplayTUI(cmd, file)
		},
	}
	f.run.register(cmd.Flags())
	cmd.Flags().BoolVar(&f.against, "against", false, "re-send the recorded requests to TARGET (the argument after FILE, or -- CMD [ARGS…]) and diff the answers")
	cmd.Flags().StringArrayVar(&f.ignore, "ignore", nil, "also ignore the JSON `PATH` when comparing answers, as in $.result.tools[*].annotations or $..bookingRef (repeatable; ids, timestamps, session ids and _meta are always ignored: see above)")
	cmd.Flags().StringVar(&f.junit, "junit", "", "with --against, also write a JUnit XML report to `FILE`: a testcase per request, a differing answer a failure (written even when the run fails)")
	return cmd
}
