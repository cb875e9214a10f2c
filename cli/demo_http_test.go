package cli

import (
	"context"
	"regexp"
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
	t.Parallel()
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

	assertDemoSessionExpires(t, url)

	// An event with no data field dispatches nothing (the SSE standard):
	// the trace shows it, and the answer follows on the same stream.
	r = misbehaveHTTP(t, url, map[string]any{"mode": "empty_event"})
	if got := toolText(t, r); got != "misbehaved: sent an event with no data field" {
		t.Errorf("empty_event: %q", got)
	}
	call := regexp.MustCompile(`request tools/call id=(\d+)\n`).FindStringSubmatch(r.stderr)
	if !regexpMatch(`(?m)^\S+ ← control \d+B "id: \S+\\nevent: message"$`, r.stderr) || call == nil || strings.Count(r.stderr, "result id="+call[1]+"\n") != 1 {
		t.Errorf("empty_event: no event without data shown, or not one answer:\n%s", r.stderr)
	}
	if d := (peerRun{result: r}).diag(); len(d) != 0 {
		t.Errorf("empty_event: stderr %q", d)
	}

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

// assertDemoSessionExpires runs a script whose first step expires the
// demo's session (2025-11-25): the next request, the tools/list that
// learns the tools' outputSchemas after the first result, meets the 404,
// which mcpscope says, starts a new session (a second initialize, then
// notifications/initialized) and sends that request again, which is
// answered; the second step goes on in the new session.
func assertDemoSessionExpires(t *testing.T, url string) {
	t.Helper()
	answers := writeAnswers(t, `
steps:
  - {method: tools/call, params: {name: misbehave, arguments: {mode: expire_session}}}
  - {method: tools/call, params: {name: echo, arguments: {message: again}}}
`)
	r := mcpscope(t, "script", "--protocol", "2025-11-25", "--trace", "--answers", answers, url)
	r.mustExit(t, ExitOK)
	if lines := stdoutLines(t, r); len(lines) != 2 || toolText(t, result{stdout: lines[1]}) != "again" {
		t.Fatalf("expire_session: stdout %q", r.stdout)
	}
	m := regexp.MustCompile(`(?m)^warning: the server no longer knows session \S+ \(404\): starting a new session and sending tools/list \(id (\d+)\) again$`).FindStringSubmatchIndex(r.stderr)
	if m == nil {
		t.Fatalf("expire_session: no warning:\n%s", r.stderr)
	}
	before, after, id := r.stderr[:m[0]], r.stderr[m[1]:], r.stderr[m[2]:m[3]]
	for _, c := range []struct {
		what, in, part string
		n              int
	}{
		{"initialize before the warning", before, "request initialize id=", 1},
		{"initialize after it", after, "request initialize id=", 1},
		{"notifications/initialized after it", after, "notification notifications/initialized\n", 1},
		{"the listing before it", before, "request tools/list id=" + id + "\n", 1},
		{"the listing after it", after, "request tools/list id=" + id + "\n", 1},
		{"the listing's answer", r.stderr, "result id=" + id + "\n", 1},
		{"the echo after it", after, "request tools/call id=", 1},
	} {
		if got := strings.Count(c.in, c.part); got != c.n {
			t.Errorf("expire_session: %s: %d, want %d:\n%s", c.what, got, c.n, r.stderr)
		}
	}
}
