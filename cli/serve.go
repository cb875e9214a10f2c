package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/demo/flow"
	demostdio "github.com/mcpscope/mcpscope/demo/stdio"
	"github.com/mcpscope/mcpscope/transports/httpconf"
	"github.com/spf13/cobra"
)

// serveFlags are the flags of `mcpscope serve`.
type serveFlags struct {
	listen     string
	http       string
	ws         string
	unix       string // --unix PATH: Streamable HTTP on a Unix socket
	cert, key  string
	stdio      bool
	root       string
	origins    []string
	maxStreams int
	describe   []string // --tool-description NAME=TEXT
}

// newServeCommand builds `mcpscope serve`: the demo server alone.
func newServeCommand() *cobra.Command {
	f := &serveFlags{}
	cmd := &cobra.Command{
		Use:   "serve [flags]",
		Short: "Run the demo server alone (MCP-Flow over WebTransport, HTTP, or stdio)",
		Long: "Run mcpscope's demo server. By default it speaks MCP-Flow over WebTransport at\n" +
			"https://ADDR/mcp with a fresh self-signed certificate (valid 13 days) and prints the\n" +
			"certificate hash and the command that connects to it on stderr. With --http ADDR it\n" +
			"speaks plain HTTP instead (MCP-Flow too when --listen is given): Streamable HTTP at\n" +
			"/mcp (2025-11-25 sessions and 2026-07-28 stateless requests), legacy HTTP+SSE at /sse\n" +
			"(/sse-abs names an absolute endpoint) and tool frames over HTTP at /tools; it prints\n" +
			"the URLs on stderr. With --ws ADDR it speaks WebSocket (MCP-Flow too when --listen is\n" +
			"given, HTTP too with --http): an MCP session at /mcp (subprotocol mcp), tool frames\n" +
			"at /tools and gateway streams at /gateway; it prints the URLs on stderr. With\n" +
			"--unix PATH it speaks the same HTTP on a Unix socket (mode 0600, removed on exit; a\n" +
			"stale socket there is replaced, any other file refused): connect to unix://PATH#/mcp.\n" +
			"With --stdio it speaks line-delimited JSON-RPC on stdin/stdout\n" +
			"instead (diagnostics on stderr only).\n" +
			"It stops on SIGINT or SIGTERM, draining open streams first.",
		Example: "  mcpscope serve\n" +
			"  mcpscope serve --listen 127.0.0.1:0 --root ./files --origin https://example.com\n" +
			"  mcpscope serve --http 127.0.0.1:8080\n" +
			"  mcpscope serve --ws 127.0.0.1:8081\n" +
			"  mcpscope serve --unix /tmp/mcpscope-demo.sock\n" +
			"  mcpscope serve --stdio --tool-description 'echo=Says the message back'\n" +
			"  mcpscope tools -- mcpscope serve --stdio",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return f.run(cmd) },
	}
	fs := cmd.Flags()
	fs.StringVar(&f.listen, "listen", flow.DefaultListen, "UDP `ADDR` to listen on (port 0 picks a free one)")
	fs.StringVar(&f.cert, "cert", "", "TLS certificate PEM `FILE` (default: generate a self-signed one)")
	fs.StringVar(&f.key, "key", "", "TLS private key PEM `FILE` (with --cert)")
	fs.BoolVar(&f.stdio, "stdio", false, "speak line-delimited JSON-RPC on stdin/stdout instead of MCP-Flow")
	fs.StringVar(&f.http, "http", "", "serve HTTP (Streamable HTTP, legacy SSE, tool frames) on TCP `ADDR` (port 0 picks one); MCP-Flow only with --listen")
	fs.StringVar(&f.ws, "ws", "", "serve WebSocket (MCP, tool frames, gateway streams) on TCP `ADDR` (port 0 picks one); MCP-Flow only with --listen")
	fs.StringVar(&f.unix, "unix", "", "serve HTTP (Streamable HTTP, legacy SSE, tool frames) on the Unix socket `PATH` (mode 0600); MCP-Flow only with --listen")
	fs.StringVar(&f.root, "root", "", "sandbox `DIR` that read_file serves (default: a temporary one with sample files)")
	fs.StringArrayVar(&f.origins, "origin", nil, "accept this Origin `O` (repeatable; requests without Origin are always accepted)")
	fs.IntVar(&f.maxStreams, "max-streams", flow.DefaultMaxConcurrentStreams, "execution streams open at once per session: `N`")
	fs.StringArrayVar(&f.describe, "tool-description", nil, "give the tool NAME the description TEXT in tools/list: `NAME=TEXT` (repeatable; a changed server for regression checks such as replay --against)")
	return cmd
}

// run validates the flags and serves until a signal or the context ends.
func (f *serveFlags) run(cmd *cobra.Command) error {
	if (f.cert == "") != (f.key == "") {
		return usagef("--cert and --key go together")
	}
	if f.maxStreams < 1 {
		return usagef("--max-streams must be at least 1, got %d", f.maxStreams)
	}
	if f.stdio {
		for _, name := range []string{"listen", "http", "ws", "unix", "cert", "key", "origin", "max-streams"} {
			if cmd.Flags().Changed(name) {
				return usagef("--%s applies to MCP-Flow, HTTP, WebSocket or a Unix socket, not to --stdio", name)
			}
		}
	}
	withFlow := (f.http == "" && f.ws == "" && f.unix == "") || cmd.Flags().Changed("listen")
	if !withFlow {
		for _, name := range []string{"cert", "key", "max-streams"} {
			if cmd.Flags().Changed(name) {
				return usagef("--%s applies to MCP-Flow; add --listen to serve MCP-Flow beside --http, --ws or --unix", name)
			}
		}
	}
	if cmd.Flags().Changed("http") && f.http == "" {
		return usagef("--http needs an address, such as 127.0.0.1:8080")
	}
	if cmd.Flags().Changed("ws") && f.ws == "" {
		return usagef("--ws needs an address, such as 127.0.0.1:8081")
	}
	if err := f.checkUnix(cmd); err != nil {
		return err
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	errw := cmd.ErrOrStderr()
	log := slog.New(slog.NewTextHandler(errw, &slog.HandlerOptions{Level: slog.LevelWarn}))
	if f.stdio {
		return f.serveStdio(ctx, cmd.InOrStdin(), cmd.OutOrStdout(), errw, log)
	}
	if f.http != "" || f.ws != "" || f.unix != "" {
		return f.serveTCP(ctx, errw, log, withFlow)
	}
	return f.serveFlow(ctx, errw, log, nil)
}

// checkUnix checks --unix PATH and makes it absolute, so that the URL
// printed reaches it from any folder.
func (f *serveFlags) checkUnix(cmd *cobra.Command) error {
	if !cmd.Flags().Changed("unix") {
		return nil
	}
	if f.unix == "" {
		return usagef("--unix needs the socket's path, such as /tmp/mcpscope-demo.sock")
	}
	if name, ok := strings.CutPrefix(f.unix, "@"); ok {
		if err := httpconf.CheckAbstractName(name); err != nil {
			return usagef("--unix %s: %w", quote(f.unix), err) // a Linux abstract socket: a name, no file
		}
		return nil
	}
	abs, err := filepath.Abs(f.unix)
	if err != nil {
		return usagef("--unix %s: %w", quote(f.unix), err)
	}
	if _, err := httpconf.ParseUnix(&url.URL{Scheme: httpconf.UnixScheme, Path: abs}); err != nil {
		return usagef("--unix %s: %w", quote(f.unix), err)
	}
	f.unix = abs
	return nil
}

// core builds the demo core the flags describe.
func (f *serveFlags) core(log *slog.Logger) (*demo.Server, error) {
	descriptions := make(map[string]string, len(f.describe))
	for _, d := range f.describe {
		name, text, ok := strings.Cut(d, "=")
		if !ok || name == "" {
			return nil, usagef("--tool-description takes NAME=TEXT, got %s", quote(d))
		}
		descriptions[name] = text
	}
	core, err := demo.New(demo.Options{SandboxRoot: f.root, Logger: log, ToolDescriptions: descriptions})
	if err != nil {
		return nil, usagef("%w", err)
	}
	return core, nil
}

// serveStdio serves the demo over stdin/stdout.
func (f *serveFlags) serveStdio(ctx context.Context, in io.Reader, out, errw io.Writer, log *slog.Logger) error {
	core, err := f.core(log)
	if err != nil {
		return err
	}
	defer core.Close()
	fmt.Fprintf(errw, "mcpscope demo server on stdio (sandbox %s)\n", core.SandboxRoot())
	return demostdio.Serve(ctx, core, in, out, demostdio.Options{Logger: log})
}

// serveFlow serves the demo over MCP-Flow and prints how to connect; core
// nil: a core of its own.
func (f *serveFlags) serveFlow(ctx context.Context, errw io.Writer, log *slog.Logger, core *demo.Server) error {
	if core == nil {
		var err error
		if core, err = f.core(log); err != nil {
			return err
		}
		defer core.Close()
	}
	srv, err := flow.New(flow.Config{
		Listen: f.listen, CertFile: f.cert, KeyFile: f.key, Origins: f.origins,
		MaxConcurrentStreams: f.maxStreams, SandboxRoot: f.root, Logger: log, Core: core,
	})
	if err != nil {
		return usagef("%w", err)
	}
	if err := srv.Listen(); err != nil {
		return withExit(ExitConnection, err)
	}
	kind := "from --cert"
	if srv.CertGenerated() {
		kind = "self-signed, generated"
	}
	fmt.Fprintf(errw, "mcpscope demo server: MCP-Flow over WebTransport at %s\n", srv.URL())
	fmt.Fprintf(errw, "sandbox: %s\n", srv.Core().SandboxRoot())
	fmt.Fprintf(errw, "certificate (%s, valid until %s): %s\n", kind, srv.CertNotAfter().UTC().Format(time.RFC3339), srv.CertHash())
	fmt.Fprintf(errw, "connect with:\n  %s\n", srv.ConnectCommand())
	if err := srv.Serve(ctx); err != nil {
		return withExit(ExitConnection, err)
	}
	return nil
}
