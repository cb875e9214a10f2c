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
	"github.com/mcpscope/mcpscope/ui"
)

// demoListen is where the embedded demo server listens: loopback, a free port.
const demoListen = "127.0.0.1:0"

// newDemoCommand builds `mcpscope demo [--transport wt|stdio|http|sse|tools-http]`.
func newDemoCommand() *cobra.Command {
	f := &runFlags{}
	cmd := &cobra.Command{
		Use:   "demo [flags]",
		Short: "Start the embedded demo server and open the TUI connected to it",
		Long: "Start mcpscope's demo server on a loopback port and open the TUI connected to it.\n" +
			"By default the server speaks MCP-Flow over WebTransport, in this process, with a fresh\n" +
			"self-signed certificate that the client pins by its hash. With --transport stdio the\n" +
			"TUI starts `mcpscope serve --stdio` as a child process instead; with --transport http,\n" +
			"sse or tools-http it serves the demo over Streamable HTTP, legacy HTTP+SSE or seed 004's\n" +
			"POST dialect on a loopback port in this process.\n" +
			"Keys t, R and a send tools/list, a 1 MiB read_file and a long analyze.",
		Example: "  mcpscope demo\n  mcpscope demo --transport stdio\n  mcpscope demo --transport http\n  mcpscope demo --encoding json",
		Args:    noArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return runDemo(cmd, f) },
	}
	f.register(cmd.Flags())
	return cmd
}

// runDemo starts the demo server the flags ask for and runs the TUI on it.
func runDemo(cmd *cobra.Command, f *runFlags) error {
	onConnect := []ui.Request{ui.ListTools}
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
		err = runTUI(cmd, f, target, onConnect)
		if serr := stop(); err == nil && serr != nil {
			err = withExit(ExitConnection, fmt.Errorf("stopping the demo server: %w", serr))
		}
		return err
	case "stdio":
		target, err := stdioDemoTarget()
		if err != nil {
			return err
		}
		return runTUI(cmd, f, target, onConnect)
	case "http", "sse", "tools-http":
		ctx := cmd.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		target, stop, err := startHTTPDemo(ctx, f.transport)
		if err != nil {
			return err
		}
		if f.transport == "tools-http" {
			onConnect = nil // seed 004 has no tools/list
		}
		err = runTUI(cmd, f, target, onConnect)
		if serr := stop(); err == nil && serr != nil {
			err = withExit(ExitConnection, fmt.Errorf("stopping the demo server: %w", serr))
		}
		return err
	}
	return usagef("--transport for the demo is wt, stdio, http, sse or tools-http, not %q", f.transport)
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
	core, err := demo.New(demo.Options{})
	if err != nil {
		return Target{}, nil, fmt.Errorf("building the demo server: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		_ = core.Close()
		return Target{}, nil, withExit(ExitConnection, fmt.Errorf("starting the demo server: %w", err))
	}
	sctx, cancel := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- demohttp.Serve(sctx, core, ln, demohttp.Options{}) }()
	stop := func() error {
		cancel()
		err := <-served
		return errors.Join(err, core.Close())
	}
	urls := demohttp.EndpointURLs(demohttp.BaseURL(ln.Addr()))
	endpoint := map[string]string{"http": urls.MCP, "sse": urls.SSE, "tools-http": urls.Tools}[transport]
	target, err := parseURLTarget(endpoint, transport)
	if err != nil {
		return Target{}, nil, errors.Join(err, stop())
	}
	return target, stop, nil
}

// stdioDemoTarget is this very program run as `serve --stdio`.
func stdioDemoTarget() (Target, error) {
	exe, err := os.Executable()
	if err != nil {
		return Target{}, fmt.Errorf("finding the mcpscope executable to run the stdio demo: %w", err)
	}
	return Target{Transport: "stdio", Argv: []string{exe, "serve", "--stdio"}}, nil
}
