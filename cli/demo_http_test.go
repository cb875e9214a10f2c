package cli

import (
	"context"
	"strings"
	"testing"
)

// The HTTP and WebSocket demos serve the demo in this process on the
// endpoint each transport speaks, and mcpscope's own client talks to each.
func TestLoopbackDemoTargets(t *testing.T) {
	for _, transport := range []string{"http", "sse", "tools-http", "ws", "tools-ws", "gateway"} {
		start := startHTTPDemo
		if strings.HasSuffix(transport, "ws") || transport == "gateway" {
			start = startWSDemo
		}
		target, stop, err := start(context.Background(), transport)
		if err != nil {
			t.Fatalf("%s: %v", transport, err)
		}
		r := mcpscope(t, "call", "--transport", transport, "tools/call", callTool(t, "echo", map[string]any{"message": "hi"}), target.URL.String())
		if err := stop(); err != nil {
			t.Errorf("%s: stopping: %v", transport, err)
		}
		if got := toolText(t, r); !strings.Contains(got, "hi") {
			t.Errorf("%s: echo %q", transport, got)
		}
	}
}

// misbehaveHTTP runs the demo's misbehave tool in mode over Streamable
// HTTP (2025-11-25 sessions) with --trace and the extra args.
func misbehaveHTTP(t *testing.T, url string, args map[string]any, extra ...string) result {
	t.Helper()
	cmd := append([]string{"call", "--protocol", "2025-11-25", "--trace"}, extra...)
	return mcpscope(t, append(cmd, "tools/call", callTool(t, "misbehave", args), url)...)
}

// A hostile HTTP server, played by the demo: a cut stream is resumed with
// Last-Event-ID and answered once; an expired session is started again; a
// wrong content type, a heartbeat-only stream and a huge event each end
// the call with a clear error, within the timeout (the stream a cancel
// closed is not resumed).
func TestHTTPDemoMisbehaves(t *testing.T) {
	target, stop, err := startHTTPDemo(context.Background(), "http")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })
	url := target.URL.String()

	r := misbehaveHTTP(t, url, map[string]any{"mode": "cut_sse"})
	if got := toolText(t, r); !strings.Contains(got, "Last-Event-ID") {
		t.Errorf("cut_sse: %q", got)
	}
	mustTrace(t, r, "→ http", "GET /mcp")
	if !strings.Contains(r.stderr, "resuming after event") || strings.Count(r.stderr, "result id=2") != 1 {
		t.Errorf("cut_sse: no single resumed answer:\n%s", r.stderr)
	}

	r = misbehaveHTTP(t, url, map[string]any{"mode": "expire_session"})
	r.mustExit(t, ExitOK)

	r = misbehaveHTTP(t, url, map[string]any{"mode": "wrong_content_type"})
	r.mustExit(t, ExitConnection)
	if !strings.Contains(r.stderr, `Content-Type "text/html`) {
		t.Errorf("wrong_content_type: %s", r.stderr)
	}

	r = misbehaveHTTP(t, url, map[string]any{"mode": "heartbeats_only"}, "--timeout", "1s")
	r.mustExit(t, ExitTimeout)
	if strings.Contains(r.stderr, "resuming") {
		t.Errorf("heartbeats_only: a cancelled request's stream was resumed:\n%s", r.stderr)
	}

	r = misbehaveHTTP(t, url, map[string]any{"mode": "huge_event", "size": 3 << 20}, "--max-frame-size", "1048576")
	r.mustExit(t, ExitConnection)
	if !strings.Contains(r.stderr, "exceeds the 1048576-byte event limit") {
		t.Errorf("huge_event: %s", r.stderr)
	}
}
