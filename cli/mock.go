package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/recordings/mock"
)

// mockFlags are the flags of `mcpscope mock`.
type mockFlags struct {
	listen, http, ws string
	ignore           []string
}

// mockHelp is the long help of `mcpscope mock`.
const mockHelp = "Serve a recorded session as a deterministic server, to test a client against it.\n" +
	"Each request is answered from the recording by method and params, compared as\n" +
	"replay --against compares answers (the volatile members _meta, sessionId,\n" +
	"requestId, progressToken, taskId and timestamps are ignored); several recorded\n" +
	"requests that match are served in recorded order, then the last again. The\n" +
	"notifications and requests the server sent before an answer are sent again\n" +
	"before it, in order, and those it sent outside any request after\n" +
	"notifications/initialized. initialize and server/discover get the recorded\n" +
	"answer, protocol version included. A request the recording does not hold gets\n" +
	"a JSON-RPC error (-32601, or -32602 when only the params differ) naming the\n" +
	"closest recorded request.\n\n" +
	"It speaks line-delimited JSON-RPC on stdin/stdout by default (until stdin ends),\n" +
	"Streamable HTTP at http://ADDR/mcp with --http, WebSocket (subprotocol mcp) at\n" +
	"ws://ADDR/mcp with --ws, MCP-Flow with --listen; stop it with Ctrl-C."

// newMockCommand builds `mcpscope mock RECORDING`.
func newMockCommand() *cobra.Command {
	f := &mockFlags{}
	cmd := &cobra.Command{
		Use:   "mock RECORDING [--listen ADDR|--http ADDR|--ws ADDR]",
		Short: "Serve a recording as a deterministic server",
		Long:  mockHelp,
		Example: "  mcpscope mock session.mcpscope.jsonl\n" +
			"  mcpscope tools -- mcpscope mock session.mcpscope.jsonl\n" +
			"  mcpscope mock --http 127.0.0.1:8080 session.mcpscope.jsonl\n" +
			"  mcpscope replay session.mcpscope.jsonl --against -- mcpscope mock session.mcpscope.jsonl",
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return f.run(cmd, args) },
	}
	fs := cmd.Flags()
	fs.StringVar(&f.listen, "listen", "", "serve MCP-Flow over WebTransport on UDP `ADDR` (port 0 picks one)")
	fs.StringVar(&f.http, "http", "", "serve Streamable HTTP at /mcp on TCP `ADDR` (port 0 picks one)")
	fs.StringVar(&f.ws, "ws", "", "serve WebSocket at /mcp on TCP `ADDR` (port 0 picks one)")
	fs.StringArrayVar(&f.ignore, "ignore", nil, "also ignore the JSON `PATH` of a request when matching it, as in $.params.arguments.seed or $..cursor (repeatable)")
	return cmd
}

// run loads the recording and serves it until stdin ends, a signal or
// the context.
func (f *mockFlags) run(cmd *cobra.Command, args []string) error {
	if len(args) != 1 {
		return usagef("mock takes one RECORDING, got %d arguments", len(args))
	}
	set := 0
	for _, name := range []string{"listen", "http", "ws"} {
		if cmd.Flags().Changed(name) {
			set++
			if cmd.Flags().Lookup(name).Value.String() == "" {
				return usagef("--%s needs an address, such as 127.0.0.1:8080", name)
			}
		}
	}
	if set > 1 {
		return usagef("--listen, --http and --ws: give one (stdio when none)")
	}
	rec, err := mock.Load(args[0], f.ignore...)
	if err != nil {
		return usagef("%w", err)
	}
	errw := cmd.ErrOrStderr()
	for _, w := range rec.Warnings {
		fmt.Fprintln(errw, "mcpscope mock: warning: "+termtext.SafeLine(w))
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch {
	case f.listen != "":
		return serveMockFlow(ctx, rec, f.listen, errw)
	case f.http != "":
		return serveMockTCP(ctx, f.http, "http", "Streamable HTTP", mock.NewHTTPHandler(rec), errw)
	case f.ws != "":
		return serveMockTCP(ctx, f.ws, "ws", "WebSocket", mock.NewWSHandler(rec), errw)
	}
	fmt.Fprintf(errw, "mcpscope mock: %d recorded requests on stdio\n", rec.Requests)
	if err := mock.ServeStdio(ctx, rec, cmd.InOrStdin(), cmd.OutOrStdout()); err != nil {
		return withExit(ExitConnection, err)
	}
	return nil
}

// serveMockTCP serves h on addr and prints its URL.
func serveMockTCP(ctx context.Context, addr, scheme, what string, h http.Handler, errw io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return withExit(ExitConnection, fmt.Errorf("listening on %s: %w", addr, err))
	}
	fmt.Fprintf(errw, "mcpscope mock: %s at %s\n", what, mock.EndpointURL(scheme, ln.Addr()))
	if err := mock.Serve(ctx, ln, h); err != nil && !errors.Is(err, context.Canceled) {
		return withExit(ExitConnection, err)
	}
	return nil
}
