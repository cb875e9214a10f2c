package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"

	"github.com/mcpscope/mcpscope/demo"
	demohttp "github.com/mcpscope/mcpscope/demo/http"
)

// server is one listener of `serve` and what serves on it until ctx ends.
type server func(ctx context.Context) error

// serveTCP serves the demo over plain HTTP at --http and over WebSocket
// at --ws, printing their URLs, and over MCP-Flow beside them when
// withFlow; they share one core, stop with ctx, and the first to end stops
// the others.
func (f *serveFlags) serveTCP(ctx context.Context, errw io.Writer, log *slog.Logger, withFlow bool) error {
	core, err := f.core(log)
	if err != nil {
		return err
	}
	defer core.Close()
	var servers []server
	var lns []net.Listener
	for _, l := range []struct {
		addr  string
		serve func(net.Listener) server
	}{{f.http, func(ln net.Listener) server { return f.serveHTTP(errw, log, core, ln) }},
		{f.ws, func(ln net.Listener) server { return f.serveWS(errw, log, core, ln) }}} {
		if l.addr == "" {
			continue
		}
		ln, err := net.Listen("tcp", l.addr)
		if err != nil {
			for _, ln := range lns {
				_ = ln.Close()
			}
			return withExit(ExitConnection, fmt.Errorf("listening on %s: %w", l.addr, err))
		}
		lns = append(lns, ln)
		servers = append(servers, l.serve(ln))
	}
	fmt.Fprintf(errw, "sandbox: %s\n", core.SandboxRoot())
	if withFlow {
		servers = append(servers, func(ctx context.Context) error { return f.serveFlow(ctx, errw, log, core) })
	}
	return runServers(ctx, servers)
}

// runServers runs every server until ctx ends or one ends; the errors of
// all are joined.
func runServers(ctx context.Context, servers []server) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, len(servers))
	for _, s := range servers {
		go func() {
			err := s(ctx)
			cancel()
			done <- err
		}()
	}
	var errs []error
	for range servers {
		errs = append(errs, <-done)
	}
	return errors.Join(errs...)
}

// serveHTTP prints the HTTP endpoints on ln and returns what serves them.
func (f *serveFlags) serveHTTP(errw io.Writer, log *slog.Logger, core *demo.Server, ln net.Listener) server {
	u := demohttp.EndpointURLs(demohttp.BaseURL(ln.Addr()))
	fmt.Fprintf(errw, "mcpscope demo server: HTTP at %s\n", demohttp.BaseURL(ln.Addr()))
	fmt.Fprintf(errw, "  Streamable HTTP (2025-11-25 sessions, 2026-07-28 stateless): %s\n", u.MCP)
	fmt.Fprintf(errw, "  legacy HTTP+SSE (2024-11-05): %s (absolute endpoint: %s)\n", u.SSE, u.SSEAbsolute)
	fmt.Fprintf(errw, "  tool frames over HTTP (--transport tools-http): %s\n", u.Tools)
	fmt.Fprintf(errw, "connect with:\n  mcpscope tools %s\n", u.MCP)
	return func(ctx context.Context) error {
		return connectionFailure(demohttp.Serve(ctx, core, ln, demohttp.Options{Origins: f.origins, Logger: log}))
	}
}

// connectionFailure gives a server's failure the exit code of a connection
// failure; nil stays nil.
func connectionFailure(err error) error {
	if err != nil {
		return withExit(ExitConnection, err)
	}
	return nil
}
