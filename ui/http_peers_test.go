package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/proto/mcp"
	mcphttp "github.com/mcpscope/mcpscope/transports/http"
)

// httpTransport reaches url over the HTTP family in mode (ModeAuto:
// Streamable HTTP, falling back to legacy HTTP+SSE), as the TUI's own
// dialer does for an http:// target.
func httpTransport(url string, mode mcphttp.Mode) transportFor {
	return func(sink capture.Sink) (client.Transport, error) {
		return mcphttp.New(mcphttp.Config{URL: url, Mode: mode, Sink: sink})
	}
}

// startHTTPFlow runs the program against peer over the HTTP family in
// mode, its session configured by opts, with roots declared.
func startHTTPFlow(t *testing.T, peer *peertest.HTTPPeer, mode mcphttp.Mode, opts client.Options, roots []mcp.Root) *questionFlow {
	t.Helper()
	return startPeerFlow(t, peer.URL, httpTransport(peer.URL, mode), opts, roots)
}

// TestHTTPTSStreamable drives the TUI against the TypeScript reference
// server over Streamable HTTP: the status bar names the transport, the era
// and version and the session; the explorer lists the tools and calls echo
// with non-ASCII text; the elicitation form, the sampling request and the
// roots are answered by keys as over stdio.
func TestHTTPTSStreamable(t *testing.T) {
	t.Parallel()
	f := startHTTPFlow(t, peertest.StartTSStreamableHTTP(t), mcphttp.ModeAuto, client.Options{}, tsSeedRoots)
	f.probe.waitText(t, "Streamable HTTP", "2025-11-25 · initialize handshake", "session ")
	f.explore()
	msg := "héllo, wörld ✓ 日本"
	f.callTool("echo", func() { sendText(f.tm, msg) })
	f.answer("echo", "Echo: "+msg)
	sendKeys(f.tm, "esc")
	f.answerTSQuestions()
	f.quit()
	if !hasFrame(f.store, capture.Out, mcp.MethodNotifyRootsListChanged) {
		t.Error("no notifications/roots/list_changed in the traffic")
	}
}

// TestHTTPTSLongRunningReportsProgress: over Streamable HTTP the progress
// of the TypeScript reference's long operation arrives on the call's SSE
// answer and shows as over stdio.
func TestHTTPTSLongRunningReportsProgress(t *testing.T) {
	t.Parallel()
	url := peertest.StartTSStreamableHTTP(t).URL
	startLongRunningOn(t, httpTransport(url, mcphttp.ModeAuto), client.Options{}, 0.4, 2).checkProgress()
}

// TestHTTPTSLongRunningBarAndCancel: over Streamable HTTP the cancel key
// sends notifications/cancelled (a POST of its own) and the progress the
// server keeps sending on the call's stream is flagged, as over stdio.
func TestHTTPTSLongRunningBarAndCancel(t *testing.T) {
	t.Parallel()
	url := peertest.StartTSStreamableHTTP(t).URL
	startLongRunningOn(t, httpTransport(url, mcphttp.ModeAuto), client.Options{}, cancelRunDuration, cancelRunSteps).checkCancel()
}

// TestHTTPTimeout: a call over Streamable HTTP that sends nothing for
// longer than the session's idle limit ends with the timeout on screen and
// a notifications/cancelled in the traffic.
func TestHTTPTimeout(t *testing.T) {
	t.Parallel()
	url := peertest.StartTSStreamableHTTP(t).URL
	// Progress comes every 3 s; the idle limit is 1 s.
	r := startLongRunningOn(t, httpTransport(url, mcphttp.ModeAuto), client.Options{Timeout: time.Second}, 6, 2)
	r.probe.waitText(t, "timed out after 1s")
	r.probe.waitScreen(t, "the cancellation in the traffic", func(s string) bool {
		// The call's name may be cut at the column's end.
		return lineWith(s, mcp.MethodNotifyCancelled, "tools/call trigger")
	})
	r.quit()
}

// TestHTTPConformanceStateless drives the Go SDK conformance server in its
// stateless 2026-07-28 mode: the status bar says so, and the multi-round
// MRTR tool is answered in the question overlay as over stdio.
func TestHTTPConformanceStateless(t *testing.T) {
	f := startHTTPFlow(t, peertest.StartGoSDKConformanceHTTP(t, true), mcphttp.ModeAuto, client.Options{}, nil)
	s := f.probe.waitText(t, "Streamable HTTP", "2026-07-28 · server/discover")
	if strings.Contains(s, "session ") {
		t.Errorf("a stateless server shows a session:\n%s", s)
	}
	f.answerMRTRRounds()
}

// TestHTTPPeersListAndCall opens the explorer on each HTTP peer, sees its
// tools listed and calls one, its answer shown.
func TestHTTPPeersListAndCall(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		start func(testing.TB) *peertest.HTTPPeer
		mode  mcphttp.Mode
		via   string // the transport the status bar names
		tool  string
		args  string // typed into the tool's first field
		want  string
	}{
		{"TS reference sse", peertest.StartTSSSE, mcphttp.ModeLegacySSE, "HTTP+SSE", "echo", "über", "Echo: über"},
		{"TS reference sse found by the fallback", peertest.StartTSSSE, mcphttp.ModeAuto, "HTTP+SSE", "echo", "ok", "Echo: ok"},
		{"Go SDK everything -http", peertest.StartGoSDKEverythingHTTP, mcphttp.ModeAuto, "Streamable HTTP", "greet", "Ada", "Hi Ada"},
		{"Go SDK conformance -stateless=false", func(t testing.TB) *peertest.HTTPPeer { return peertest.StartGoSDKConformanceHTTP(t, false) },
			mcphttp.ModeAuto, "Streamable HTTP", "test_simple_text", "", "This is a simple text response for testing."},
		{"Go SDK sse example", peertest.StartGoSDKSSE, mcphttp.ModeLegacySSE, "HTTP+SSE", "greet1", "Ada", "Ada"},
		{"mark3labs conformance", peertest.StartMark3labsConformance, mcphttp.ModeAuto, "Streamable HTTP", "test_simple_text", "", "This is a simple text response for testing."},
		{"mark3labs dynamic_path", peertest.StartMark3labsDynamicPath, mcphttp.ModeAuto, "HTTP+SSE", "echo", "", "Echo: <nil>"}, // its echo declares no argument
	} {
		t.Run(c.name, func(t *testing.T) {
			f := startHTTPFlow(t, c.start(t), c.mode, client.Options{}, nil)
			f.probe.waitText(t, c.via)
			f.explore()
			var args func()
			if c.args != "" {
				args = func() { sendText(f.tm, c.args) }
			}
			f.callTool(c.tool, args)
			f.answer(c.tool, c.want)
			f.quit()
		})
	}
}
