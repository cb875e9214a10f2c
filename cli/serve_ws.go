package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"

	"github.com/mcpscope/mcpscope/demo"
	demows "github.com/mcpscope/mcpscope/demo/ws"
)

// serveWS prints the WebSocket endpoints on ln and returns what serves
// them.
func (f *serveFlags) serveWS(errw io.Writer, log *slog.Logger, core *demo.Server, ln net.Listener) server {
	u := demows.EndpointURLs(ln.Addr())
	fmt.Fprintf(errw, "mcpscope demo server: WebSocket at %s\n", ln.Addr())
	fmt.Fprintf(errw, "  MCP over WebSocket (subprotocol mcp, --transport ws): %s\n", u.MCP)
	fmt.Fprintf(errw, "  tool frames over WebSocket (--transport tools-ws): %s\n", u.Tools)
	fmt.Fprintf(errw, "  gateway streams (JSON-RPC and StreamMessage, --transport gateway): %s\n", u.Gateway)
	fmt.Fprintf(errw, "connect with:\n  mcpscope tools %s\n", u.MCP)
	return func(ctx context.Context) error {
		return connectionFailure(demows.Serve(ctx, core, ln, demows.Options{Origins: f.origins, Logger: log}))
	}
}
