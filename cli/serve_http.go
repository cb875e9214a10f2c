package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"strings"

	"github.com/mcpscope/mcpscope/demo"
	demohttp "github.com/mcpscope/mcpscope/demo/http"
	"github.com/mcpscope/mcpscope/internal/app/listen"
	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// server is one listener of `serve` and what serves on it until ctx ends.
type server func(ctx context.Context) error

// serveTCP serves the demo over plain HTTP at --http, over WebSocket at
// --ws and over HTTP on the Unix socket --unix, printing their URLs, and
// over MCP-Flow beside them when withFlow; they share one core, stop with
// ctx, and the first to end stops the others.
func (f *serveFlags) serveTCP(ctx context.Context, errw io.Writer, log *slog.Logger, withFlow bool) error {
	core, err := f.core(log)
	if err != nil {
		return err
	}
	defer core.Close()
	var servers []server
	var lns []net.Listener
	for _, l := range []struct {
		addr   string
		listen func(string) (net.Listener, error)
		serve  func(net.Listener) server
	}{{f.http, tcpListen, func(ln net.Listener) server { return f.serveHTTP(errw, log, core, ln) }},
		{f.ws, tcpListen, func(ln net.Listener) server { return f.serveWS(errw, log, core, ln) }},
		{f.unix, listen.Unix, func(ln net.Listener) server { return f.serveUnix(errw, log, core, ln) }}} {
		if l.addr == "" {
			continue
		}
		ln, err := l.listen(l.addr)
		if err != nil {
			for _, ln := range lns {
				_ = ln.Close()
			}
			return withExit(ExitConnection, err)
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

// tcpListen listens on the TCP address addr.
func tcpListen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", addr, err)
	}
	return ln, nil
}

// serveUnix prints the Streamable HTTP endpoint on the Unix socket ln
// (mode 0600) and returns what serves it; closing ln removes the socket.
func (f *serveFlags) serveUnix(errw io.Writer, log *slog.Logger, core *demo.Server, ln net.Listener) server {
	socket, mode := ln.Addr().String(), "mode 0600"
	u := (&url.URL{Scheme: httpconf.UnixScheme, Path: socket, Fragment: demohttp.PathMCP}).String()
	if name, ok := strings.CutPrefix(socket, "@"); ok {
		mode = "abstract: no file, so no mode keeps other users of this network namespace out"
		u = httpconf.UnixScheme + "://@" + name + "#" + demohttp.PathMCP
	}
	fmt.Fprintf(errw, "mcpscope demo server: HTTP on the Unix socket %s (%s)\n", socket, mode)
	fmt.Fprintf(errw, "  Streamable HTTP (2025-11-25 sessions, 2026-07-28 stateless): %s\n", u)
	fmt.Fprintf(errw, "connect with:\n  mcpscope tools %s\n", u)
	return func(ctx context.Context) error {
		return connectionFailure(demohttp.Serve(ctx, core, ln, demohttp.Options{Origins: f.origins, Logger: log}))
	}
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
