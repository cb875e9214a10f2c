package demohttp

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/demo/internal/wizardtest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// initialize is answered on an SSE stream: the priming event (an id, the
// retry field, an empty data field) first, then the result as a message
// event with an id of the same stream; Mcp-Session-Id comes with it, and
// notifications/initialized gets 202 with no body.
func TestInitializeOpensSession(t *testing.T) {
	ts := startServer(t, Options{})
	resp := ts.post(PathMCP, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, nil)
	sid := resp.Header.Get(headerSession)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != mediaSSE || len(sid) < 20 || strings.ContainsAny(sid, " \t") {
		t.Fatalf("initialize: %s %q, session %q", resp.Status, resp.Header.Get("Content-Type"), sid)
	}
	es := readEvents(t, resp.Body)
	prime := es.must(t)
	if prime.id != "1-0" || prime.retry != "1000" || len(prime.data) != 1 || prime.data[0] != "" || prime.name != "" {
		t.Errorf("priming event %+v", prime)
	}
	ev := es.must(t)
	res := wizardtest.Result[mcp.InitializeResult](t, ev.message(t))
	if ev.id != "1-1" || ev.name != "message" || res.ProtocolVersion != mcp.ProtocolVersion20250618 || res.ServerInfo.Name != "mcpscope-demo" {
		t.Errorf("answer event %+v: %+v", ev, res)
	}
	if rest := es.end(t); len(rest) != 0 {
		t.Errorf("the stream goes on after the answer: %+v", rest)
	}
	resp = ts.post(PathMCP, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, map[string]string{headerSession: sid})
	if resp.StatusCode != http.StatusAccepted || bodyOf(t, resp) != "" {
		t.Errorf("initialized: %s", resp.Status)
	}
}

// The session header rules: none → 400, unknown → 404, with initialize →
// 400, a protocol version other than the session's → 400; an Accept
// without both types → 406; GET without a session → 405; PUT → 405.
func TestSessionHeaderRules(t *testing.T) {
	ts := startServer(t, Options{})
	sid := ts.initialize()
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	for _, c := range []struct {
		method, body string
		headers      map[string]string
		want         int
	}{
		{http.MethodPost, list, nil, http.StatusBadRequest},
		{http.MethodPost, list, map[string]string{headerSession: "nope"}, http.StatusNotFound},
		{http.MethodPost, `{"jsonrpc":"2.0","id":3,"method":"initialize","params":{}}`, map[string]string{headerSession: sid}, http.StatusBadRequest},
		{http.MethodPost, list, map[string]string{headerSession: sid, headerVersion: "2025-03-26"}, http.StatusBadRequest},
		{http.MethodPost, list, map[string]string{headerSession: sid, headerVersion: "1999-01-01"}, http.StatusBadRequest},
		{http.MethodPost, list, map[string]string{headerSession: sid, "Accept": mediaJSON}, http.StatusNotAcceptable},
		{http.MethodPost, list, map[string]string{headerSession: sid, "Accept": mediaSSE}, http.StatusNotAcceptable},
		{http.MethodGet, "", map[string]string{"Accept": mediaSSE}, http.StatusMethodNotAllowed},
		{http.MethodGet, "", map[string]string{headerSession: sid, "Accept": mediaJSON}, http.StatusNotAcceptable},
		{http.MethodPut, list, map[string]string{headerSession: sid}, http.StatusMethodNotAllowed},
		{http.MethodDelete, "", nil, http.StatusBadRequest},
	} {
		resp := ts.do(c.method, PathMCP, c.body, c.headers)
		if resp.StatusCode != c.want {
			t.Errorf("%s %v: %s, want %d", c.method, c.headers, resp.Status, c.want)
		}
	}
	// The session still answers with the right headers.
	resp := ts.post(PathMCP, list, map[string]string{headerSession: sid, headerVersion: mcp.LatestLegacy})
	if m := readEvents(t, resp.Body).message(t); m.Error != nil || !strings.Contains(string(m.Result), `"echo"`) {
		t.Errorf("tools/list: %s %+v", m.Result, m.Error)
	}
}

// DELETE ends the session with 204; every later use of it is 404.
func TestDeleteEndsSession(t *testing.T) {
	ts := startServer(t, Options{})
	sid := ts.initialize()
	if resp := ts.do(http.MethodDelete, PathMCP, "", map[string]string{headerSession: sid}); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %s", resp.Status)
	}
	for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
		body := ""
		if method == http.MethodPost {
			body = `{"jsonrpc":"2.0","id":2,"method":"ping"}`
		}
		if resp := ts.do(method, PathMCP, body, map[string]string{headerSession: sid, "Accept": mediaJSON + ", " + mediaSSE}); resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s after DELETE: %s", method, resp.Status)
		}
	}
	if n := ts.h.Sessions(); n != 0 {
		t.Errorf("%d sessions after DELETE", n)
	}
}

// Messages of a call go on its POST's stream: elicit_all's
// elicitation/create comes there, the client's answer is POSTed (202) and
// the result follows on the same stream. Messages of no call go on the GET
// stream: book_trip's interaction.prompt after an answer.
func TestServerRequestsFindTheirStream(t *testing.T) {
	ts := startServer(t, Options{})
	p := newPeer(ts)
	c := wizardtest.New(t, p)
	if got := c.ElicitAll(mcp.ElicitActionAccept, wizardtest.ElicitAllContent()); got["valid"] != true {
		t.Errorf("elicit_all: %v", got)
	}
	c.WalkBookTrip("book_trip")
	c.WalkBookTrip("book_trip_stateless")
}

// The elicitation/create of a call comes on that call's stream, not on
// the GET stream.
func TestCallRequestOnPOSTStream(t *testing.T) {
	ts := startServer(t, Options{})
	sid := ts.initialize()
	resp := ts.post(PathMCP, toolCall(t, 7, "elicit_all", map[string]any{}), map[string]string{headerSession: sid})
	es := readEvents(t, resp.Body)
	req := es.message(t)
	if req.Method != mcp.MethodElicitationCreate || req.ID == nil {
		t.Fatalf("first message on the POST stream: %s", req.Raw)
	}
	answer, err := jsonrpc.NewResult(*req.ID, map[string]any{"action": "decline"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := answer.EncodeJSON()
	if r := ts.post(PathMCP, string(b), map[string]string{headerSession: sid}); r.StatusCode != http.StatusAccepted {
		t.Fatalf("answer: %s", r.Status)
	}
	if m := es.message(t); m.ID == nil || m.ID.String() != "7" || !strings.Contains(string(m.Result), `"decline"`) {
		t.Errorf("result: %s", m.Raw)
	}
}

// analyze's progress (for the request's token) and log lines come on the
// call's stream before its answer, each event with an id of that stream.
func TestProgressOnCallStream(t *testing.T) {
	ts := startServer(t, Options{})
	sid := ts.initialize()
	body := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"analyze","arguments":{"steps":2,"interval_ms":0},"_meta":{"progressToken":"p"}}}`
	resp := ts.post(PathMCP, body, map[string]string{headerSession: sid})
	all := readEvents(t, resp.Body).end(t)
	var methods []string
	for i, e := range all[1:] {
		if want := "2-" + string(rune('1'+i)); e.id != want {
			t.Errorf("event %d id %q, want %q", i+1, e.id, want)
		}
		m := e.message(t)
		methods = append(methods, m.Method)
	}
	want := "notifications/progress notifications/message notifications/progress notifications/message "
	if strings.Join(methods, " ") != want || all[0].id != "2-0" {
		t.Errorf("events %q, first id %q", methods, all[0].id)
	}
}

// notifications/cancelled ends the call unanswered: its POST stream ends
// without an answer.
func TestCancelledCallEndsStream(t *testing.T) {
	ts := startServer(t, Options{})
	release, cancelled := ts.gate("gate")
	defer close(release)
	sid := ts.initialize()
	resp := ts.post(PathMCP, toolCall(t, 9, "gate", nil), map[string]string{headerSession: sid})
	es := readEvents(t, resp.Body)
	if m := es.message(t); m.Method != mcp.MethodNotifyMessage {
		t.Fatalf("first message %s", m.Raw)
	}
	if r := ts.post(PathMCP, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}`, map[string]string{headerSession: sid}); r.StatusCode != http.StatusAccepted {
		t.Fatalf("cancel: %s", r.Status)
	}
	<-cancelled
	if rest := es.end(t); len(rest) != 0 {
		t.Errorf("the cancelled call's stream went on: %+v", rest)
	}
}

// A second GET stream of a session is 409.
func TestOneGETStream(t *testing.T) {
	ts := startServer(t, Options{})
	sid := ts.initialize()
	hd := map[string]string{headerSession: sid, "Accept": mediaSSE}
	first := ts.do(http.MethodGet, PathMCP, "", hd)
	if first.StatusCode != http.StatusOK || readEvents(t, first.Body).must(t).id != "0-0" {
		t.Fatalf("GET: %s", first.Status)
	}
	if second := ts.do(http.MethodGet, PathMCP, "", hd); second.StatusCode != http.StatusConflict {
		t.Errorf("second GET: %s", second.Status)
	}
}

// With JSONResponse a request is answered with one application/json body;
// the call's notifications go on the GET stream.
func TestJSONResponse(t *testing.T) {
	ts := startServer(t, Options{JSONResponse: true})
	resp := ts.post(PathMCP, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`, nil)
	sid := resp.Header.Get(headerSession)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != mediaJSON || sid == "" {
		t.Fatalf("initialize: %s %q %q", resp.Status, resp.Header.Get("Content-Type"), sid)
	}
	get := ts.do(http.MethodGet, PathMCP, "", map[string]string{headerSession: sid, "Accept": mediaSSE})
	es := readEvents(t, get.Body)
	es.must(t) // priming
	resp = ts.post(PathMCP, toolCall(t, 2, "analyze", map[string]any{"steps": 1, "interval_ms": 0}), map[string]string{headerSession: sid})
	m, err := jsonrpc.DecodeMessage([]byte(bodyOf(t, resp)))
	if err != nil || resp.Header.Get("Content-Type") != mediaJSON || !strings.Contains(string(m.Result), "analysis complete") {
		t.Fatalf("analyze: %s %v", m.Raw, err)
	}
	if n := es.message(t); n.Method != mcp.MethodNotifyMessage {
		t.Errorf("GET stream: %s", n.Raw)
	}
}

// A body over MaxBody is 413 with a JSON-RPC error; an Origin not on the
// list is 403; a listed one passes.
func TestLimitsAndOrigin(t *testing.T) {
	ts := startServer(t, Options{MaxBody: 256, Origins: []string{"https://ok.example"}})
	resp := ts.post(PathMCP, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"`+strings.Repeat("x", 300)+`"}}`, nil)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || rpcErrorOf(t, resp).Code != mcp.CodeInvalidRequest {
		t.Errorf("large body: %s", resp.Status)
	}
	for origin, want := range map[string]int{"https://evil.example": http.StatusForbidden, "https://ok.example": http.StatusOK} {
		resp := ts.post(PathMCP, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, map[string]string{"Origin": origin})
		if resp.StatusCode != want {
			t.Errorf("Origin %s: %s", origin, resp.Status)
		}
	}
	for _, body := range []string{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, `not json`} {
		if resp := ts.post(PathMCP, body, nil); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %s", body, resp.Status)
		}
	}
}
