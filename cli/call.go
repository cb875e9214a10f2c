package cli

import (
	"context"
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// newCallCommand builds `mcpscope call METHOD [PARAMS_JSON] TARGET`.
func newCallCommand() *cobra.Command {
	f := &runFlags{}
	var insist bool
	cmd := &cobra.Command{
		Use:   "call [flags] METHOD [PARAMS_JSON] TARGET",
		Short: "Send one request and print its result on stdout",
		Long: "Send one JSON-RPC request to the server and print the result on stdout: as text at\n" +
			"a terminal (a tool's text, one line for each image, audio or resource; lists as\n" +
			"tables), as JSON when piped or with --format json. PARAMS_JSON is a JSON object, or - to\n" +
			"read it from standard input. A JSON-RPC error result exits with status 1, and so\n" +
			"does a tools/call result that is a failure (isError: true, or structuredContent\n" +
			"missing or failing the tool's outputSchema, as tools/list declares it): the\n" +
			"result is printed, and one line on stderr names the tool and its first text.\n\n" +
			"subscriptions/listen prints its acknowledgement and every notification of the\n" +
			"subscription as it arrives, one JSON message a line, re-issues a broken stream\n" +
			"under a new id, and ends with the server's result, or at --max-time (exit 0 once\n" +
			"acknowledged; the acknowledgement must come within --timeout).\n\n" +
			"Over Streamable HTTP in 2026-07-28 a tools/call of a tool whose x-mcp-header\n" +
			"annotations are invalid is not sent (exit 5, the error says why) unless --insist:\n" +
			"then it goes out without its Mcp-Param headers.",
		Example: "  mcpscope call tools/call '{\"name\":\"greet\",\"arguments\":{\"name\":\"Ada\"}}' -- ./server\n" +
			"  mcpscope call resources/read '{\"uri\":\"embedded:info\"}' -- ./server\n" +
			"  mcpscope call ping https://example.com/mcp\n" +
			"  mcpscope call --insist tools/call '{\"name\":\"route_clash\"}' http://127.0.0.1:8080/mcp\n" +
			"  mcpscope call subscriptions/listen '{\"notifications\":{\"toolsListChanged\":true}}' --max-time 1m https://example.com/mcp",
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			positional, target, err := f.target(cmd, args)
			if err != nil {
				return err
			}
			if len(positional) == 0 {
				return usagef("missing METHOD: mcpscope call METHOD [PARAMS_JSON] TARGET")
			}
			if len(positional) > 2 {
				return usagef("too many arguments before the TARGET: want METHOD [PARAMS_JSON], got %d arguments", len(positional))
			}
			method := positional[0]
			var params json.RawMessage
			if len(positional) == 2 {
				if params, err = parseParams(positional[1], cmd.InOrStdin()); err != nil {
					return err
				}
			}
			if method == mcp.MethodSubscriptionsListen && (f.output.file != "" || f.output.raw) {
				return usagef("--output and --raw take one result; subscriptions/listen prints a message a line")
			}
			io := streamsOf(cmd)
			return f.execute(cmd.Context(), target, io, func(ctx context.Context, r *run) error {
				if method == mcp.MethodSubscriptionsListen {
					return r.listen(ctx, params)
				}
				res, err := r.callJudged(ctx, method, params, insist)
				return r.emitJudged(ctx, res, err)
			})
		},
	}
	f.register(cmd.Flags())
	cmd.Flags().BoolVar(&insist, insistFlag, false, "send a tools/call even when the tool's x-mcp-header annotations are invalid (2026-07-28 over HTTP), without its Mcp-Param headers")
	return cmd
}
