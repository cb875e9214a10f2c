package screentest

import (
	"net/http/httptest"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/demo"
	demohttp "github.com/mcpscope/mcpscope/demo/http"
	mcphttp "github.com/mcpscope/mcpscope/transports/http"
)

// ConnectDemoHTTP starts the demo server over HTTP on a loopback port for
// the test and connects a session to its Streamable HTTP endpoint,
// capturing in sink. The session negotiates as mcpscope does: 2026-07-28,
// where the demo also lists the tools whose arguments travel in Mcp-Param
// headers (route, and route_clash whose annotations are invalid).
func ConnectDemoHTTP(t testing.TB, sink capture.Sink) *client.Session {
	t.Helper()
	return ConnectDemoHTTPWith(t, sink, demo.Options{})
}

// ConnectDemoHTTPWith is ConnectDemoHTTP with the demo built from opts
// (its sandbox is the test's own).
func ConnectDemoHTTPWith(t testing.TB, sink capture.Sink, opts demo.Options) *client.Session {
	t.Helper()
	tr, err := mcphttp.New(mcphttp.Config{URL: ServeDemoHTTP(t, opts), Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	return connectSession(t, tr, client.Options{}, "the HTTP demo")
}

// ServeDemoHTTP serves the demo built from opts (its sandbox is the
// test's own) over HTTP on a loopback port until the end of the test, and
// returns its Streamable HTTP URL.
func ServeDemoHTTP(t testing.TB, opts demo.Options) string {
	t.Helper()
	opts.SandboxRoot = t.TempDir()
	core, err := demo.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	h := demohttp.New(core, demohttp.Options{})
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		h.Close()
		srv.Close()
		_ = core.Close()
	})
	return srv.URL + demohttp.PathMCP
}
