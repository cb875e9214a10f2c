package mcphttp

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Every POST asks for both answer types and says it carries JSON; the
// user's headers and Origin go on each; initialize carries no session id
// nor version, and everything after it carries the session id the server
// gave and the version its initialize result chose.
func TestPostHeadersAcrossTheHandshake(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	f.on(mcp.MethodInitialize, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		w.Header().Set(headerSession, "abc-123")
		writeJSON(w, http.StatusOK, resultOf(m, initResult(mcp.ProtocolVersion20250618)))
	})
	r := newRig(t, f.URL(), func(c *Config) {
		c.Header = http.Header{"X-Team": {"blue"}}
		c.Origin = "http://localhost:1"
	})
	r.handshake(t)
	r.send(t, request(t, 2, mcp.MethodToolsList, nil))
	if m := r.in.next(t); m.ID == nil || m.ID.Key() != jsonrpc.IntID(2).Key() || m.Result == nil {
		t.Fatalf("tools/list answer = %s", m.Raw)
	}
	posts := f.await(3, "POSTs", method(http.MethodPost))
	for _, p := range posts {
		h := p.Header
		if h.Get("Accept") != "application/json, text/event-stream" || h.Get("Content-Type") != "application/json" {
			t.Errorf("%s: Accept %q, Content-Type %q", p.Msg.Method, h.Get("Accept"), h.Get("Content-Type"))
		}
		if h.Get("X-Team") != "blue" || h.Get("Origin") != "http://localhost:1" {
			t.Errorf("%s: X-Team %q, Origin %q", p.Msg.Method, h.Get("X-Team"), h.Get("Origin"))
		}
	}
	init := posts[0].Header
	if _, ok := init[headerSession]; ok {
		t.Errorf("initialize carried Mcp-Session-Id %q", init.Get(headerSession))
	}
	if _, ok := init[headerVersion]; ok {
		t.Errorf("initialize carried MCP-Protocol-Version %q", init.Get(headerVersion))
	}
	for _, p := range posts[1:] {
		if p.Header.Get(headerSession) != "abc-123" || p.Header.Get(headerVersion) != mcp.ProtocolVersion20250618 {
			t.Errorf("%s: Mcp-Session-Id %q, MCP-Protocol-Version %q", p.Msg.Method, p.Header.Get(headerSession), p.Header.Get(headerVersion))
		}
	}
	if got := r.tr.LinkState(); got.SessionID != "abc-123" || got.Transport != "Streamable HTTP" {
		t.Errorf("LinkState = %+v", got)
	}
}

// A request carrying the 2026-07-28 _meta says its version, method and
// name in headers; a name that cannot go as it is goes base64-encoded.
func TestModernRequestHeaders(t *testing.T) {
	f := newFake(t)
	r := newRig(t, f.URL(), nil)
	cases := []struct {
		method string
		params map[string]any
		name   string
	}{
		{mcp.MethodToolsCall, map[string]any{"name": "echo"}, "echo"},
		{mcp.MethodToolsCall, map[string]any{"name": "café"}, "=?base64?Y2Fmw6k=?="},
		{mcp.MethodResourcesRead, map[string]any{"uri": " file:///a "}, "=?base64?IGZpbGU6Ly8vYSA=?="},
		{mcp.MethodPromptsGet, map[string]any{"name": "=?base64?x?="}, "=?base64?PT9iYXNlNjQ/eD89?="},
		{mcp.MethodToolsList, nil, ""},
	}
	for i, c := range cases {
		r.send(t, request(t, int64(i+1), c.method, modernParams(c.params)))
		r.in.next(t)
		got := f.await(i+1, "POSTs", method(http.MethodPost))[i].Header
		if got.Get(headerVersion) != mcp.Modern || got.Get(headerMethod) != c.method {
			t.Errorf("%s: MCP-Protocol-Version %q, Mcp-Method %q", c.method, got.Get(headerVersion), got.Get(headerMethod))
		}
		if vs, ok := got[headerName]; (c.name == "") == ok || got.Get(headerName) != c.name {
			t.Errorf("%s %v: Mcp-Name %q, want %q", c.method, c.params, vs, c.name)
		}
	}
	// A request without the _meta is a session's: no Mcp-Method.
	r.send(t, request(t, 9, mcp.MethodToolsCall, map[string]any{"name": "echo"}))
	r.in.next(t)
	if h := f.await(6, "POSTs", method(http.MethodPost))[5].Header; h.Get(headerMethod) != "" || h.Get(headerName) != "" {
		t.Errorf("a legacy request carried Mcp-Method %q, Mcp-Name %q", h.Get(headerMethod), h.Get(headerName))
	}
}

// headerValue leaves plain printable ASCII as it is and encodes the rest.
func TestHeaderValueEncoding(t *testing.T) {
	for in, want := range map[string]string{
		"get_weather":   "get_weather",
		"a b":           "a b",
		"":              "",
		"x\r\nEvil: 1":  "=?base64?eA0KRXZpbDogMQ==?=",
		"\tlead":        "=?base64?CWxlYWQ=?=",
		"trail ":        "=?base64?dHJhaWwg?=",
		"日本":            "=?base64?5pel5pys?=",
		"=?base64?QQ?=": "=?base64?PT9iYXNlNjQ/UVE/PQ==?=",
		"=?base64?":     "=?base64?",
	} {
		if got := mcp.EncodeHeaderValue(in); got != want {
			t.Errorf("headerValue(%q) = %q, want %q", in, got, want)
		}
		if strings.ContainsAny(mcp.EncodeHeaderValue(in), "\r\n") {
			t.Errorf("headerValue(%q) holds a line break", in)
		}
	}
}

// Through the engine in the 2026-07-28 era: server/discover goes first
// with no session, the transport lists the tools once to learn their
// x-mcp-header annotations, and a tools/call carries the headers mirroring
// its _meta and name; no GET stream is opened and nothing is DELETEd.
func TestModernEraThroughTheEngine(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	f.on(mcp.MethodDiscover, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		writeJSON(w, http.StatusOK, resultOf(m, `{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}`))
	})
	s := connect(t, f.URL(), nil, client.Options{})
	if s.Era() != client.EraModern {
		t.Fatalf("era %v", s.Era())
	}
	if _, err := s.call(mcp.MethodToolsCall, map[string]any{"name": "météo", "arguments": map[string]any{}}); err != nil {
		t.Fatalf("tools/call: %v", err)
	}
	_ = s.Close()
	posts := f.requests(method(http.MethodPost))
	if len(posts) != 3 || posts[1].Msg.Method != mcp.MethodToolsList {
		t.Fatalf("POSTs: %v, want server/discover, the transport's own tools/list (x-mcp-header), tools/call", pathsOf(posts))
	}
	probe, call := posts[0].Header, posts[2].Header
	if probe.Get(headerMethod) != mcp.MethodDiscover || probe.Get(headerVersion) != mcp.Modern || probe.Get(headerSession) != "" {
		t.Errorf("server/discover headers %v", probe)
	}
	if call.Get(headerMethod) != mcp.MethodToolsCall || call.Get(headerName) != mcp.EncodeHeaderValue("météo") || call.Get(headerVersion) != mcp.Modern {
		t.Errorf("tools/call headers %v", call)
	}
	if other := f.requests(func(x seen) bool { return x.Method != http.MethodPost }); len(other) != 0 {
		t.Errorf("other requests: %v", pathsOf(other))
	}
}
