package demohttp

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// sseAccept asks seed 004 for an SSE answer.
var sseAccept = map[string]string{"Accept": mediaSSE}

// Seed 004 without SSE: 200 with the JSON-RPC response, 4xx/5xx with the
// error envelope, 405 for other HTTP methods, no handshake needed.
func TestToolsJSON(t *testing.T) {
	ts := startServer(t, Options{})
	resp := ts.post(PathTools, toolCall(t, 1, "echo", map[string]any{"message": "seed four"}), map[string]string{"Accept": mediaJSON})
	m, err := jsonrpc.DecodeMessage([]byte(bodyOf(t, resp)))
	if err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != mediaJSON || m.ID.String() != "1" ||
		!strings.Contains(string(m.Result), `"seed four"`) {
		t.Fatalf("echo: %s %s %v", resp.Status, m.Raw, err)
	}
	for _, c := range []struct {
		method, body string
		status, code int
	}{
		{http.MethodPost, toolCall(t, 2, "echo", map[string]any{}), http.StatusBadRequest, mcp.CodeInvalidParams},
		{http.MethodPost, toolCall(t, 3, "no_such_tool", nil), http.StatusBadRequest, mcp.CodeInvalidParams},
		{http.MethodPost, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`, http.StatusNotFound, mcp.CodeMethodNotFound},
		{http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, http.StatusBadRequest, mcp.CodeInvalidRequest},
		{http.MethodPost, `{"jsonrpc":`, http.StatusBadRequest, mcp.CodeParseError},
		{http.MethodGet, "", http.StatusMethodNotAllowed, mcp.CodeInvalidRequest},
		{http.MethodPut, toolCall(t, 5, "echo", nil), http.StatusMethodNotAllowed, mcp.CodeInvalidRequest},
	} {
		resp := ts.do(c.method, PathTools, c.body, map[string]string{"Accept": mediaJSON})
		if rerr := rpcErrorOf(t, resp); resp.StatusCode != c.status || rerr.Code != c.code {
			t.Errorf("%s %s: %s %+v", c.method, c.body, resp.Status, rerr)
		}
	}
}

// Seed 004 with SSE: analyze's log lines and then its result's content
// item come as "result" fragments, and "complete" carries the whole
// response whose content is every fragment's, in order.
func TestToolsSSEFragments(t *testing.T) {
	ts := startServer(t, Options{})
	resp := ts.post(PathTools, toolCall(t, 7, "analyze", map[string]any{"steps": 2, "interval_ms": 0}), sseAccept)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != mediaSSE {
		t.Fatalf("analyze: %s %q", resp.Status, resp.Header.Get("Content-Type"))
	}
	all := readEvents(t, resp.Body).end(t)
	var texts, names []string
	var fragments []json.RawMessage
	for _, e := range all {
		names = append(names, e.name)
		if e.name == eventResult {
			f := decode[struct{ Content []json.RawMessage }](t, []byte(e.data[0]))
			fragments = append(fragments, f.Content...)
			texts = append(texts, string(f.Content[0]))
		}
	}
	if strings.Join(names, " ") != "result result result complete" || !strings.Contains(texts[0], "step 1/2") || !strings.Contains(texts[2], "analysis complete") {
		t.Fatalf("events %q: %q", names, texts)
	}
	m := all[3].message(t)
	whole := decode[struct{ Content []json.RawMessage }](t, m.Result)
	if m.ID.String() != "7" || len(whole.Content) != 3 || string(whole.Content[2]) != string(fragments[2]) {
		t.Errorf("complete %s", m.Raw)
	}
}

// Seed 004 with SSE: an error ends the stream as an "error" event holding
// the error envelope.
func TestToolsSSEError(t *testing.T) {
	ts := startServer(t, Options{})
	resp := ts.post(PathTools, toolCall(t, 8, "echo", map[string]any{}), sseAccept)
	all := readEvents(t, resp.Body).end(t)
	if len(all) != 1 || all[0].name != eventError || all[0].message(t).Error.Code != mcp.CodeInvalidParams {
		t.Errorf("events %+v", all)
	}
}

// While a seed-004 call works, ": heartbeat" comments go out at each tick
// of the heartbeat; the result follows when the work ends.
func TestToolsSSEHeartbeat(t *testing.T) {
	ts := startServer(t, Options{})
	release, _ := ts.gate("gate")
	resp := ts.post(PathTools, toolCall(t, 9, "gate", nil), sseAccept)
	es := readEvents(t, resp.Body)
	if e := es.must(t); e.name != eventResult || !strings.Contains(e.data[0], "gate open") {
		t.Fatalf("first event %+v", e)
	}
	ts.tick <- time.Time{}
	ts.tick <- time.Time{} // taken once the first comment is written
	close(release)
	rest := es.end(t)
	if len(rest) != 2 || len(rest[0].comments) < 1 || rest[0].comments[0] != "heartbeat" || rest[1].name != eventComplete {
		t.Errorf("after the gate: %+v", rest)
	}
}
