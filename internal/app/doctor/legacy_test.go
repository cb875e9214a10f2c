package doctor

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/checklist"
)

// legacyServer answers POST with status and body, and GET with an event
// stream of events.
func legacyServer(t *testing.T, status int, body, events string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			w.WriteHeader(status)
			fmt.Fprint(w, body)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, events)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/sse"
}

// TestHTTPStepFollowsTheLegacyStream: the http step follows a POST
// refused without a JSON-RPC answer with the legacy stream, as the http
// transport does, and judges its endpoint event as the transport does.
func TestHTTPStepFollowsTheLegacyStream(t *testing.T) {
	const endpoint = ": hello\n\nevent: endpoint\ndata: /message?sessionId=1\n\n"
	for _, tc := range []struct {
		name         string
		status       int
		body, events string
		transport    string
		failed       bool
		want         string
	}{
		{"405 then the stream", 405, "", endpoint, "http", false, "POST → 405 Method Not Allowed with no JSON-RPC answer; the legacy HTTP+SSE transport (2024-11-05): GET → 200 OK, text/event-stream, endpoint /message"},
		{"400 then the stream", 400, "bad", endpoint, "http", false, "GET → 200 OK, text/event-stream, endpoint /message"},
		{"--transport sse", 404, "", endpoint, "sse", false, "GET → 200 OK, text/event-stream, endpoint /message"},
		{"a JSON-RPC answer", 404, `{"jsonrpc":"2.0","id":"mcpscope-doctor","error":{"code":-32601,"message":"no"}}`, endpoint, "http", false, "POST → 404 Not Found with a JSON-RPC answer: error -32601 no (the endpoint is there; it refused the probe)"},
		{"another origin", 404, "", "event: endpoint\ndata: http://127.0.0.1:1/message\n\n", "http", true, "the endpoint event names http://127.0.0.1:1/message, another origin"},
		{"no endpoint event", 404, "", "event: message\ndata: {}\n\n", "http", true, "nor a legacy HTTP+SSE stream: GET → 200 OK, text/event-stream: no endpoint event"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, err := url.Parse(legacyServer(t, tc.status, tc.body, tc.events))
			if err != nil {
				t.Fatal(err)
			}
			r := Run(t.Context(), Config{Transport: tc.transport, URL: u})
			var step checklist.Result
			for _, res := range r.Results {
				if res.Step == "http" {
					step = res
				}
			}
			if (step.Status == checklist.Failed) != tc.failed || !strings.Contains(step.Detail, tc.want) {
				t.Fatalf("http step %v %q, want failed=%v with %q:\n%s", step.Status, step.Detail, tc.failed, tc.want, render(t, r))
			}
			if tc.name == "a JSON-RPC answer" && strings.Contains(step.Detail, "legacy") {
				t.Fatalf("a refusal with a JSON-RPC answer was followed by the legacy stream:\n%s", render(t, r))
			}
		})
	}
}
