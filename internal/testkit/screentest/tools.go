package screentest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/demo"
	demohttp "github.com/mcpscope/mcpscope/demo/http"
	demows "github.com/mcpscope/mcpscope/demo/ws"
	mcphttp "github.com/mcpscope/mcpscope/transports/http"
	"github.com/mcpscope/mcpscope/transports/ws"
)

// ConnectDemoToolsWS starts the demo server over WebSocket on a loopback
// port for the test and connects a session to seed 004's tool dialect
// (tools-ws: no handshake, tools/call only), capturing in sink. The demo
// sends its unsolicited {"type":"ping"} as the connection opens.
func ConnectDemoToolsWS(t testing.TB, sink capture.Sink) *client.Session {
	t.Helper()
	core := newDemoCore(t)
	h := demows.New(core, demows.Options{})
	srv := startDemo(t, h, core, h.Close)
	tr, err := ws.New(ws.Config{URL: "ws" + strings.TrimPrefix(srv.URL, "http") + demows.PathTools, Mode: ws.ModeTools, Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	return connectSession(t, tr, client.Options{}, "the tools-ws demo")
}

// ConnectDemoToolsHTTP starts the demo server over HTTP on a loopback port
// for the test and connects a session to seed 004's POST dialect
// (tools-http: no handshake, tools/call only), capturing in sink.
func ConnectDemoToolsHTTP(t testing.TB, sink capture.Sink) *client.Session {
	t.Helper()
	core := newDemoCore(t)
	h := demohttp.New(core, demohttp.Options{})
	srv := startDemo(t, h, core, h.Close)
	tr, err := mcphttp.New(mcphttp.Config{URL: srv.URL + demohttp.PathTools, Mode: mcphttp.ModeTools, Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	return connectSession(t, tr, client.Options{}, "the tools-http demo")
}

// newDemoCore returns a demo server over a temporary sandbox.
func newDemoCore(t testing.TB) *demo.Server {
	t.Helper()
	core, err := demo.New(demo.Options{SandboxRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return core
}

// startDemo serves h on a loopback port until the end of the test, then
// closes the server, the handler (closeHandler) and the demo core.
func startDemo(t testing.TB, h http.Handler, core *demo.Server, closeHandler func()) *httptest.Server {
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		closeHandler()
		srv.Close()
		_ = core.Close()
	})
	return srv
}
