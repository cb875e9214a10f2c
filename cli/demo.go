package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"

	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/demo/flow"
	demohttp "github.com/mcpscope/mcpscope/demo/http"
	demows "github.com/mcpscope/mcpscope/demo/ws"
	"github.com/mcpscope/mcpscope/ui"
	"github.com/mcpscope/mcpscope/ui/explore"
)

// demoListen is where the embedded demo server listens: loopback, a free port.
const demoListen = "127.0.0.1:0"

// newDemoCommand builds `mcpscope demo [--transport wt|stdio|http|sse|tools-http|ws|tools-ws|gateway]`.
func newDemoCommand() *cobra.Command {
	f := &runFlags{}
	cmd := &cobra.Command{
		Use:   "demo [flags]",
		Short: "Start the embedded demo server and open the TUI connected to it",
		Long: "Start mcpscope's demo server on a loopback port and open the TUI connected to it.\n" +
			"By default the server speaks MCP-Flow over WebTransport, in this process, with a fresh\n" +
			"self-signed certificate that the client pins by its hash. With --transport stdio the\n" +
			"TUI starts `mcpscope serve --stdio` as a child process instead; with --transport http,\n" +
			"sse or tools-http it serves the demo over Streamable HTTP, legacy HTTP+SSE or tool frames\n" +
			"over HTTP POST on a loopback port in this process; with --transport ws, tools-ws or\n" +
			"gateway over WebSocket (an MCP session, tool frames, or gateway streams), likewise.\n" +
			"Keys t, R, a and o send tools/list and the demo's own read_file (1 MiB), analyze and tone;\n" +
			"R, a and o exist only here, never on another server. With --transport tools-http or tools-ws\n" +
			"there is no tools/list, so t does nothing: e calls a tool by its name.",
		Example: "  mcpscope demo\n  mcpscope demo --transport stdio\n  mcpscope demo --transport http\n  mcpscope demo --transport ws\n  mcpscope demo --encoding json",
		Args:    noArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return runDemo(cmd, f) },
	}
	f.register(cmd.Flags())
	cmd.Flags().Lookup("transport").Usage = "serve the demo over `NAME`: wt (the default), stdio, http, sse, tools-http, ws, tools-ws or gateway"
	return cmd
}

// runDemo starts the demo server the flags ask for and runs the TUI on it.
func runDemo(cmd *cobra.Command, f *runFlags) error {
	embedded := &tuiDemo{onConnect: []ui.Request{ui.ListTools}}
	switch f.transport {
	case "", "wt":
		ctx := cmd.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		target, stop, err := startFlowDemo(ctx, f)
		if err != nil {
			return err
		}
		err = runTUI(cmd, f, target, embedded)
		if serr := stop(); err == nil && serr != nil {
			err = withExit(ExitConnection, fmt.Errorf("stopping the demo server: %w", serr))
		}
		return err
	case "stdio":
		target, err := stdioDemoTarget()
		if err != nil {
			return err
		}
		return runTUI(cmd, f, target, embedded)
	case "http", "sse", "tools-http", "ws", "tools-ws", "gateway":
		ctx := cmd.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		srv := httpDemo(f.transport)
		if f.transport == "ws" || f.transport == "tools-ws" || f.transport == "gateway" {
			srv = wsDemo(f.transport)
		}
		target, stop, core, err := startLoopbackDemo(ctx, f.transport, srv)
		if err != nil {
			return err
		}
		if f.transport == "tools-http" || f.transport == "tools-ws" {
			// No tools/list here: the explorer is handed the demo's own.
			embedded.onConnect = nil
			embedded.tools = &explore.KnownTools{From: "the demo's tools (this transport has no list)", Tools: core.ListedTools()}
		}
		err = runTUI(cmd, f, target, embedded)
		if serr := stop(); err == nil && serr != nil {
			err = withExit(ExitConnection, fmt.Errorf("stopping the demo server: %w", serr))
		}
		return err
	}
	return usagef("--transport for the demo is wt, stdio, http, sse, tools-http, ws, tools-ws or gateway, not %q", f.transport)
}

// startFlowDemo starts the MCP-Flow demo server in this process on a
// loopback port and returns the target that reaches it; the flags pin its
// generated certificate. stop shuts the server down and waits for it.
func startFlowDemo(ctx context.Context, f *runFlags) (Target, func() error, error) {
	srv, err := flow.New(flow.Config{Listen: demoListen})
	if err != nil {
		return Target{}, nil, fmt.Errorf("building the demo server: %w", err)
	}
	if err := srv.Listen(); err != nil {
		return Target{}, nil, withExit(ExitConnection, fmt.Errorf("starting the demo server: %w", err))
	}
	sctx, cancel := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(sctx) }()
	stop := func() error {
		cancel()
		return <-served
	}
	target, err := parseURLTarget(srv.URL(), "wt")
	if err != nil {
		return Target{}, nil, errors.Join(err, stop())
	}
	f.transport, f.certHash, f.insecure = "wt", srv.CertHash(), false
	return target, stop, nil
}

// startHTTPDemo starts the HTTP demo server in this process on a loopback
// port and returns the target of the endpoint transport speaks: /mcp for
// Streamable HTTP, /sse for legacy HTTP+SSE, /tools for seed 004. stop
// shuts the server down and waits for it.
func startHTTPDemo(ctx context.Context, transport string) (Target, func() error, error) {
	target, stop, _, err := startLoopbackDemo(ctx, transport, httpDemo(transport))
	return target, stop, err
}

// httpDemo is the HTTP demo server, reached for transport.
func httpDemo(transport string) loopbackServer {
	return loopbackServer{
		endpoint: func(addr net.Addr) string {
			urls := demohttp.EndpointURLs(demohttp.BaseURL(addr))
			return map[string]string{"http": urls.MCP, "sse": urls.SSE, "tools-http": urls.Tools}[transport]
		},
		serve: func(ctx context.Context, core *demo.Server, ln net.Listener) error {
			return demohttp.Serve(ctx, core, ln, demohttp.Options{})
		},
	}
}

// startWSDemo starts the WebSocket demo server in this process on a
// loopback port and returns the target of the endpoint transport speaks:
// /mcp for ws, /tools for seed 004's tools-ws, /gateway for seed 003's
// gateway. stop shuts the server down
// and waits for it.
func startWSDemo(ctx context.Context, transport string) (Target, func() error, error) {
	target, stop, _, err := startLoopbackDemo(ctx, transport, wsDemo(transport))
	return target, stop, err
}

// wsDemo is the WebSocket demo server, reached for transport.
func wsDemo(transport string) loopbackServer {
	return loopbackServer{
		endpoint: func(addr net.Addr) string {
			urls := demows.EndpointURLs(addr)
			return map[string]string{"ws": urls.MCP, "tools-ws": urls.Tools, "gateway": urls.Gateway}[transport]
		},
		serve: func(ctx context.Context, core *demo.Server, ln net.Listener) error {
			return demows.Serve(ctx, core, ln, demows.Options{})
		},
	}
}

// loopbackServer is a demo server of the TCP transports: the endpoint a
// transport connects to on a listening address, and what serves a core on
// a listener until ctx ends.
type loopbackServer struct {
	endpoint func(addr net.Addr) string
	serve    func(ctx context.Context, core *demo.Server, ln net.Listener) error
}

// startLoopbackDemo serves a fresh demo core on a loopback port in this
// process and returns the target of its endpoint for transport, and the
// core. stop shuts the server down and waits for it.
func startLoopbackDemo(ctx context.Context, transport string, srv loopbackServer) (Target, func() error, *demo.Server, error) {
	core, err := demo.New(demo.Options{})
	if err != nil {
		return Target{}, nil, nil, fmt.Errorf("building the demo server: %w", err)
	}
	ln, err := net.Listen("tcp", demoListen)
	if err != nil {
		_ = core.Close()
		return Target{}, nil, nil, withExit(ExitConnection, fmt.Errorf("starting the demo server: %w", err))
	}
	sctx, cancel := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- srv.serve(sctx, core, ln) }()
	stop := func() error {
		cancel()
		err := <-served
		return errors.Join(err, core.Close())
	}
	target, err := parseURLTarget(srv.endpoint(ln.Addr()), transport)
	if err != nil {
		return Target{}, nil, nil, errors.Join(err, stop())
	}
	return target, stop, core, nil
}

// stdioDemoTarget is this very program run as `serve --stdio`.
func stdioDemoTarget() (Target, error) {
	exe, err := os.Executable()
	if err != nil {
		return Target{}, fmt.Errorf("finding the mcpscope executable to run the stdio demo: %w", err)
	}
	return Target{Transport: "stdio", Argv: []string{exe, "serve", "--stdio"}}, nil
}
