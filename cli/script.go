package cli

import (
	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/client/answers"
)

// newScriptCommand builds `mcpscope script [flags] TARGET --answers FILE
// [--tool NAME] [--args JSON]`.
func newScriptCommand() *cobra.Command {
	f := &runFlags{}
	var tool, args string
	var insist bool
	cmd := &cobra.Command{
		Use:   "script [flags] TARGET --answers FILE [--tool NAME] [--args JSON]",
		Short: "Walk wizards and elicitations headless, answering from a file",
		Long: "Run steps against the server and answer its questions from the --answers file, without\n" +
			"a terminal. The step named by --tool (with --args as its arguments) runs first, then\n" +
			"the steps: list of the answers file, in order. A tool step on a server of interactive\n" +
			"sessions starts an interaction and answers each prompt with the next interaction:\n" +
			"answer; elsewhere it is a tools/call whose elicitations, sampling requests and input\n" +
			"rounds the file answers. A method step sends that request. Each step prints one JSON\n" +
			"result on stdout; an interaction prints {\"sessionId\",\"result\",\"summary\"}. The first\n" +
			"failing step ends the run with its exit code, a tool result that is a failure (isError,\n" +
			"or structuredContent failing its outputSchema) with 1; a question with no answer left,\n" +
			"or with no --answers file at all, exits 2.",
		Example: "  mcpscope script --answers trip.yaml --tool book_trip wt://127.0.0.1:4433/mcp\n" +
			"  mcpscope script --answers steps.yaml -- mcpscope serve --stdio\n" +
			"  mcpscope script --answers form.yaml --tool trigger-elicitation-request -- ./everything",
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, argv []string) error {
			positional, target, err := f.target(cmd, argv)
			if err != nil {
				return err
			}
			if len(positional) > 0 {
				return usagef("unexpected argument %q before the TARGET: name the tool with --tool NAME and its arguments with --args JSON", positional[0])
			}
			file := &answers.File{}
			if f.answers != "" {
				if file, err = loadAnswers(f.answers); err != nil {
					return err
				}
			}
			steps, err := scriptSteps(tool, args, file.Steps)
			if err != nil {
				return err
			}
			s := &script{steps: steps, prompts: answers.NewPrompts(file.Interaction, f.answers == ""), insist: insist}
			return f.execute(cmd.Context(), target, streamsOf(cmd), s.run)
		},
	}
	f.register(cmd.Flags())
	cmd.Flags().Lookup("answers").Usage = "answer the server's prompts and questions, and take steps, from a JSON or YAML `FILE`"
	cmd.Flags().StringVar(&tool, "tool", "", "run the tool `NAME` first (interactively when the server supports it)")
	cmd.Flags().StringVar(&args, "args", "", "the arguments of --tool: a `JSON` object")
	cmd.Flags().BoolVar(&insist, insistFlag, false, "send tools/call steps even when the tool's x-mcp-header annotations are invalid (2026-07-28 over HTTP), without their Mcp-Param headers")
	return cmd
}
