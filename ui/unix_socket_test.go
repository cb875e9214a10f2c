package ui

import (
	"context"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/dial"
	"github.com/mcpscope/mcpscope/demo"
	demohttp "github.com/mcpscope/mcpscope/demo/http"
	"github.com/mcpscope/mcpscope/internal/app/listen"
	"github.com/mcpscope/mcpscope/internal/testkit/socktest"
)

// serveDemoUnix serves the demo's HTTP on a Unix socket in a short
// folder until the test ends, and returns the socket's path.
func serveDemoUnix(t *testing.T) string {
	t.Helper()
	path := filepath.Join(socktest.ShortDir(t), "d.sock")
	ln, err := listen.Unix(path)
	if err != nil {
		t.Fatal(err)
	}
	core, err := demo.New(demo.Options{SandboxRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- demohttp.Serve(ctx, core, ln, demohttp.Options{}) }()
	t.Cleanup(func() {
		cancel()
		<-done
		_ = core.Close()
	})
	return path
}

// The TUI connected to a unix:// target names the socket: the target in
// the tab bar, the transport and its socket in the status bar and the i
// view; a tool call goes through it.
func TestUnixSocketTargetNamedOnScreen(t *testing.T) {
	t.Parallel()
	path := serveDemoUnix(t)
	target := "unix://" + path + "#/mcp"
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	viaSocket := func(sink capture.Sink) (client.Transport, error) {
		return dial.Transport(dial.Endpoint{Transport: "http", URL: u}, dial.Options{Sink: sink})
	}
	f := startPeerFlow(t, target, viaSocket, client.Options{}, nil)
	f.probe.waitText(t, target, "Streamable HTTP on unix:"+path)
	sendKeys(f.tm, "i")
	f.probe.waitText(t, "transport", "Streamable HTTP on unix:"+path)
	sendKeys(f.tm, "esc")
	f.explore()
	f.callTool("echo", func() { sendText(f.tm, "through the socket") })
	f.answer("echo", "through the socket")
	f.quit()
}
