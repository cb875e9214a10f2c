package ui

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/demo"
	demostdio "github.com/mcpscope/mcpscope/demo/stdio"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/transports/stdio"
)

// demoStdioChild makes the test binary, started by a test, serve the demo
// on its stdin and stdout as `mcpscope serve --stdio` does.
const demoStdioChild = "MCPSCOPE_UI_DEMO_STDIO_CHILD"

// TestMain serves the demo when started as a child, runs the tests
// otherwise.
func TestMain(m *testing.M) {
	if os.Getenv(demoStdioChild) == "1" {
		os.Exit(serveDemoStdio())
	}
	peertest.WidenParallel()
	os.Exit(m.Run())
}

// serveDemoStdio serves the demo on stdin and stdout until stdin ends.
func serveDemoStdio() int {
	core, err := demo.New(demo.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer core.Close()
	if err := demostdio.Serve(context.Background(), core, os.Stdin, os.Stdout, demostdio.Options{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return 0
}

// demoStdioDialer starts the test binary as the demo's stdio server for
// each connection.
func demoStdioDialer(t *testing.T) Dialer {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return func(sink capture.Sink) (Link, error) {
		tr := stdio.New(stdio.Config{Command: exe, Env: []string{demoStdioChild + "=1"}, Sink: sink})
		return Link{Transport: tr, Session: client.New(tr, client.Options{})}, nil
	}
}
