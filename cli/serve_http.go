package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"

	"github.com/mcpscope/mcpscope/demo"
	demohttp "github.com/mcpscope/mcpscope/demo/http"
)

// serveHTTP serves the demo over plain HTTP at --http, printing its URLs,
// and over MCP-Flow beside it when withFlow; both stop with ctx, and the
// first to fail stops the other.
func (f *serveFlags) serveHTTP(ctx context.Context, errw io.Writer, log *slog.Logger, withFlow bool) error {
	core, err := demo.New(demo.Options{SandboxRoot: f.root, Logger: log})
	if err != nil {
		return usagef("%w", err)
	}
	defer core.Close()
	ln, err := net.Listen("tcp", f.http)
	if err != nil {
		return withExit(ExitConnection, fmt.Errorf("listening on %s: %w", f.http, err))
	}
	u := demohttp.EndpointURLs(demohttp.BaseURL(ln.Addr()))
	fmt.Fprintf(errw, "mcpscope demo server: HTTP at %s\n", demohttp.BaseURL(ln.Addr()))
	fmt.Fprintf(errw, "  Streamable HTTP (2025-11-25 sessions, 2026-07-28 stateless): %s\n", u.MCP)
	fmt.Fprintf(errw, "  legacy HTTP+SSE (2024-11-05): %s (absolute endpoint: %s)\n", u.SSE, u.SSEAbsolute)
	fmt.Fprintf(errw, "  seed 004 tools-http: %s\n", u.Tools)
	fmt.Fprintf(errw, "sandbox: %s\n", core.SandboxRoot())
	fmt.Fprintf(errw, "connect with:\n  mcpscope tools %s\n", u.MCP)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	flowDone := make(chan error, 1)
	if withFlow {
		go func() {
			err := f.serveFlow(ctx, errw, log, core)
			cancel()
			flowDone <- err
		}()
	} else {
		flowDone <- nil
	}
	err = demohttp.Serve(ctx, core, ln, demohttp.Options{Origins: f.origins, Logger: log})
	cancel()
	if ferr := <-flowDone; ferr != nil {
		return ferr
	}
	if err != nil {
		return withExit(ExitConnection, err)
	}
	return nil
}
