package demohttp

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/demo/internal/wizardtest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// legacyPeer is a raw HTTP+SSE client: POSTs to the endpoint, messages
// from the GET stream.
type legacyPeer struct {
	ts       *testServer
	es       *events
	endpoint string
}

// openLegacy GETs path and reads the endpoint event.
func openLegacy(t *testing.T, ts *testServer, path string) *legacyPeer {
	t.Helper()
	resp := ts.do(http.MethodGet, path, "", map[string]string{"Accept": mediaSSE})
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != mediaSSE {
		t.Fatalf("GET %s: %s %q", path, resp.Status, resp.Header.Get("Content-Type"))
	}
	es := readEvents(t, resp.Body)
	e := es.must(t)
	if e.name != "endpoint" || e.id != "" || len(e.data) != 1 {
		t.Fatalf("first event %+v", e)
	}
	return &legacyPeer{ts: ts, es: es, endpoint: e.data[0]}
}

// Send POSTs m to the endpoint: 202.
func (p *legacyPeer) Send(m *jsonrpc.Message) {
	b, err := m.EncodeJSON()
	if err != nil {
		p.ts.t.Fatal(err)
	}
	if resp := p.ts.post(strings.TrimPrefix(p.endpoint, p.ts.url), string(b), nil); resp.StatusCode != http.StatusAccepted {
		p.ts.t.Fatalf("POST %s: %s", b, resp.Status)
	}
}

// Next returns the next message event of the stream.
func (p *legacyPeer) Next() *jsonrpc.Message {
	e := p.es.must(p.ts.t)
	if e.name != "message" {
		p.ts.t.Fatalf("event %+v", e)
	}
	return e.message(p.ts.t)
}

// GET /sse opens with the endpoint event, a relative URL; each POST to it
// is 202 and its answer comes as a message event on the stream: the
// handshake, a call, elicitation and a wizard walk.
func TestLegacyRelativeEndpoint(t *testing.T) {
	ts := startServer(t, Options{})
	p := openLegacy(t, ts, PathSSE)
	if !strings.HasPrefix(p.endpoint, PathMessage+"?sessionId=") {
		t.Fatalf("endpoint %q", p.endpoint)
	}
	c := wizardtest.New(t, p)
	res := wizardtest.Result[mcp.InitializeResult](t, c.Call(mcp.MethodInitialize, map[string]any{"protocolVersion": mcp.ProtocolVersion20241105}))
	if res.ProtocolVersion != mcp.ProtocolVersion20241105 {
		t.Errorf("initialize: %+v", res)
	}
	if m := c.Call(mcp.MethodToolsCall, map[string]any{"name": "echo", "arguments": map[string]any{"message": "over sse"}}); !strings.Contains(string(m.Result), "over sse") {
		t.Errorf("echo: %s", m.Raw)
	}
	if got := c.ElicitAll(mcp.ElicitActionAccept, wizardtest.ElicitAllContent()); got["valid"] != true {
		t.Errorf("elicit_all: %v", got)
	}
	c.WalkBookTrip("book_trip")
}

// GET /sse-abs names an absolute endpoint, on this server.
func TestLegacyAbsoluteEndpoint(t *testing.T) {
	ts := startServer(t, Options{})
	p := openLegacy(t, ts, PathSSEAbsolute)
	if !strings.HasPrefix(p.endpoint, ts.url+PathMessage+"?sessionId=") {
		t.Fatalf("endpoint %q, server %s", p.endpoint, ts.url)
	}
	c := wizardtest.New(t, p)
	if m := c.Call(mcp.MethodPing, nil); m.Error != nil {
		t.Errorf("ping: %s", m.Raw)
	}
}

// POST /message without a sessionId is 400, with an unknown one 404; GET
// /message and POST /sse are 405.
func TestLegacyRefusals(t *testing.T) {
	ts := startServer(t, Options{})
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	for _, c := range []struct {
		method, path string
		want         int
	}{
		{http.MethodPost, PathMessage, http.StatusBadRequest},
		{http.MethodPost, PathMessage + "?sessionId=nope", http.StatusNotFound},
		{http.MethodGet, PathMessage, http.StatusMethodNotAllowed},
		{http.MethodPost, PathSSE, http.StatusMethodNotAllowed},
	} {
		if resp := ts.do(c.method, c.path, ping, nil); resp.StatusCode != c.want {
			t.Errorf("%s %s: %s", c.method, c.path, resp.Status)
		}
	}
}

// misbehave expire_session on legacy HTTP+SSE: the answer comes, then the
// stream ends, and POSTs to the endpoint are 404.
func TestLegacyExpireSession(t *testing.T) {
	ts := startServer(t, Options{})
	p := openLegacy(t, ts, PathSSE)
	c := wizardtest.New(t, p)
	m := c.Call(mcp.MethodToolsCall, map[string]any{"name": "misbehave", "arguments": map[string]any{"mode": demo.ModeExpireSession}})
	if !strings.Contains(string(m.Result), "expired") {
		t.Fatalf("expire_session: %s", m.Raw)
	}
	if rest := p.es.end(t); len(rest) != 0 {
		t.Errorf("the stream went on: %+v", rest)
	}
	if resp := ts.post(strings.TrimPrefix(p.endpoint, ts.url), `{"jsonrpc":"2.0","id":1,"method":"ping"}`, nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("POST after expiry: %s", resp.Status)
	}
}
