package cli

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/demo"
	demohttp "github.com/mcpscope/mcpscope/demo/http"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// What a result contains, headless: structuredContent after the content,
// cache hints, MCP Apps and deprecated features, against real servers and
// the demo.

// The TypeScript reference's get-structured-content: the text prints its
// JSON, then structuredContent and that the two agree; JSON output is the
// result as the server sent it.
func TestToolStructuredContentTS(t *testing.T) {
	t.Parallel()
	ts := peertest.TSEverything(t, "stdio")
	r := mcpscope(t, withTarget(ts, "tool", "get-structured-content", "location=Chicago", "--format", "text")...)
	r.mustExit(t, ExitOK)
	containsAll(t, r.stdout, "structured content:\n{\n", `  "conditions": "`,
		"content[0] text is the same JSON as structuredContent\nvalid against outputSchema\n")
	if i, j := strings.Index(r.stdout, `{"temperature"`), strings.Index(r.stdout, "structured content:"); i < 0 || j < i {
		t.Errorf("structuredContent is not after the content:\n%s", r.stdout)
	}
	// call lists the tools (once) to check structuredContent in text.
	r = mcpscope(t, withTarget(ts, "call", "tools/call", `{"name":"get-structured-content","arguments":{"location":"Chicago"}}`, "--format", "text")...)
	r.mustExit(t, ExitOK)
	containsAll(t, r.stdout, "valid against outputSchema\n")
	piped := mcpscope(t, withTarget(ts, "tool", "get-structured-content", "location=Chicago")...)
	piped.mustExit(t, ExitOK)
	var res struct {
		Content           []json.RawMessage `json:"content"`
		StructuredContent map[string]any    `json:"structuredContent"`
	}
	if err := json.Unmarshal([]byte(piped.stdout), &res); err != nil || len(res.Content) != 1 || res.StructuredContent["conditions"] == nil ||
		strings.Contains(piped.stdout, "structured content:") {
		t.Errorf("JSON output: %v\n%s", err, piped.stdout)
	}
}

// The Go SDK's conformance server (2026-07-28, stateless) marks its lists
// ttlMs 0, public: said on stderr after a text listing, never in JSON.
func TestCacheHintsGoConformanceHTTP(t *testing.T) {
	t.Parallel()
	p := peertest.StartGoSDKConformanceHTTP(t, true)
	r := mcpscope(t, "resources", "--format", "text", p.URL)
	r.mustExit(t, ExitOK)
	for _, want := range []string{"cache hint: resources/list stale at once, public\n", "cache hint: resources/templates/list stale at once, public\n"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("no %q on stderr:\n%s", want, r.stderr)
		}
	}
	if !strings.Contains(r.stdout, "test://static-text") || strings.Contains(r.stdout, "cache hint") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	r = mcpscope(t, "resources", p.URL)
	r.mustExit(t, ExitOK)
	if strings.Contains(r.stderr, "cache hint") {
		t.Errorf("JSON output says cache hints on stderr:\n%s", r.stderr)
	}
}

// startDemoHTTP serves the in-process demo over HTTP on a port of the
// test's own; it returns the base URL.
func startDemoHTTP(t *testing.T) string {
	t.Helper()
	core, err := demo.New(demo.Options{SandboxRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(demohttp.New(core, demohttp.Options{}))
	t.Cleanup(func() {
		srv.Close()
		_ = core.Close()
	})
	return srv.URL
}

// The demo's MCP App: the tools table has an APP column, --format json
// keeps the tool's _meta as sent, and read prints the UI resource's CSP
// and permissions above its HTML; 2026-07-28 lists and reads carry cache
// hints.
func TestAppsDemoHTTP(t *testing.T) {
	t.Parallel()
	url := startDemoHTTP(t) + demohttp.PathMCP
	r := mcpscope(t, "tools", "--format", "text", url)
	r.mustExit(t, ExitOK)
	containsAll(t, r.stdout, "\nweather_app          ui://demo/weather.html  Weather for a city, with an MCP App that shows it (ui://demo/weather.html)\n")
	if !strings.Contains(r.stdout, "NAME                 APP") || !strings.Contains(r.stderr, "cache hint: tools/list cached 60 s, public\n") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}

	r = mcpscope(t, "tools", url)
	r.mustExit(t, ExitOK)
	var doc struct {
		Tools []struct {
			Name string          `json:"name"`
			Meta json.RawMessage `json:"_meta"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tool := range doc.Tools {
		if tool.Name == "weather_app" {
			found = string(tool.Meta) == `{"ui":{"resourceUri":"ui://demo/weather.html","visibility":["model","app"]},"ui/resourceUri":"ui://demo/weather.html"}`
		}
	}
	if !found {
		t.Errorf("weather_app's _meta is not as sent:\n%s", r.stdout)
	}

	r = mcpscope(t, "read", "--format", "text", "ui://demo/weather.html", url)
	r.mustExit(t, ExitOK)
	want := "app csp connect: https://api.weather.example\napp csp resource: https://cdn.weather.example\n" +
		"app permissions: geolocation\napp prefers border: yes\n<!doctype html>"
	if !strings.HasPrefix(r.stdout, want) || !strings.Contains(r.stderr, "cache hint: resources/read cached 10 s, private\n") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
}

// Deprecated features still work and are said once on stderr: the
// legacy HTTP+SSE transport (the demo), and logging in a 2026-07-28
// session (the Go SDK's conformance server).
func TestDeprecationNotes(t *testing.T) {
	t.Parallel()
	sse := startDemoHTTP(t) + demohttp.PathSSE
	r := mcpscope(t, "tool", "analyze", "steps:=2", "interval_ms:=0", "--log-level", "debug", "--transport", "sse", sse)
	r.mustExit(t, ExitOK)
	if n := strings.Count(r.stderr, "note: the HTTP+SSE transport (2024-11-05) is deprecated"); n != 1 || strings.Contains(r.stderr, "SEP-2577") ||
		!strings.Contains(r.stderr, "log info [analyze] step 2/2") {
		t.Errorf("SSE: %d notes\n%s", n, r.stderr)
	}

	p := peertest.StartGoSDKConformanceHTTP(t, true)
	r = mcpscope(t, "tool", "test_tool_with_logging", "--log-level", "debug", p.URL)
	r.mustExit(t, ExitOK)
	note := "note: notifications/message received: the logging feature is deprecated as of 2026-07-28 (SEP-2577) and still works."
	if strings.Count(r.stderr, note) != 1 || strings.Count(r.stderr, "log info") != 3 || strings.Contains(r.stderr, "HTTP+SSE") {
		t.Errorf("2026-07-28 logging:\n%s", r.stderr)
	}
}

// A deprecated feature the server asks for inside an input_required
// result (2026-07-28 MRTR) is noted as one it sends as a request would be;
// a fallback to HTTP+SSE is noted once the link is up (the Go SDK's sse
// example refuses the Streamable HTTP POST).
func TestDeprecationNotesInputRequiredAndFallback(t *testing.T) {
	t.Parallel()
	p := peertest.StartGoSDKConformanceHTTP(t, true)
	r := mcpscope(t, "call", "tools/call", `{"name":"test_input_required_result_list_roots","arguments":{}}`, p.URL)
	r.mustExit(t, ExitOK)
	note := "note: roots/list asked in an input_required result: the roots feature is deprecated as of 2026-07-28 (SEP-2577)"
	if strings.Count(r.stderr, note) != 1 || !strings.Contains(r.stdout, "root(s)") {
		t.Errorf("input_required roots:\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}

	sse := peertest.StartGoSDKSSE(t)
	r = mcpscope(t, "tools", "--format", "text", sse.URL)
	r.mustExit(t, ExitOK)
	if n := strings.Count(r.stderr, "note: the HTTP+SSE transport (2024-11-05) is deprecated"); n != 1 || !strings.Contains(r.stdout, "greet1") {
		t.Errorf("fallback to HTTP+SSE: %d notes\n%s", n, r.stderr)
	}
}

// Deprecation notes count against the run's warning cap: past it they
// are counted, not printed.
func TestDeprecationNotesCapped(t *testing.T) {
	var buf strings.Builder
	c := &warningCap{out: &lineWriter{w: &buf}}
	for range warningLimit {
		c.Warn("faults", func() string { return "fault" })
	}
	d := &deprecationNotes{notes: c, version: "2026-07-28"}
	d.note("notifications/message", "received")
	d.note("notifications/message", "received")
	c.Flush()
	if got := buf.String(); strings.Contains(got, "note:") || !strings.Contains(got, "warning: 1 more notes about deprecated features were not shown") {
		t.Errorf("stderr:\n%s", got)
	}
}

// containsAll reports each of want that text lacks.
func containsAll(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("no %q in:\n%s", w, text)
		}
	}
}
