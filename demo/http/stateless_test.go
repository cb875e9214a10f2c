package demohttp

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// modernBody is a 2026-07-28 request: _meta carries the version, client
// info and capabilities.
func modernBody(t *testing.T, id int, method string, params map[string]any) string {
	t.Helper()
	if params == nil {
		params = map[string]any{}
	}
	params["_meta"] = map[string]any{mcp.MetaProtocolVersion: mcp.Modern,
		mcp.MetaClientInfo: map[string]string{"name": "raw", "version": "1"}, mcp.MetaClientCapabilities: map[string]any{}}
	m, err := jsonrpc.NewRequest(jsonrpc.IntID(int64(id)), method, params)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := m.EncodeJSON()
	return string(b)
}

// modernHeaders are the metadata headers of a 2026-07-28 request.
func modernHeaders(method, name string) map[string]string {
	hd := map[string]string{headerVersion: mcp.Modern, headerMethod: method}
	if name != "" {
		hd[headerName] = name
	}
	return hd
}

// server/discover is answered at once, without a session: the supported
// versions (2026-07-28 first), the capabilities and serverInfo in _meta.
func TestStatelessDiscover(t *testing.T) {
	for _, eras := range []Eras{BothEras, ModernOnly} {
		ts := startServer(t, Options{Eras: eras})
		resp := ts.post(PathMCP, modernBody(t, 1, mcp.MethodDiscover, nil), modernHeaders(mcp.MethodDiscover, ""))
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != mediaJSON || resp.Header.Get(headerSession) != "" {
			t.Fatalf("discover: %s %q session %q", resp.Status, resp.Header.Get("Content-Type"), resp.Header.Get(headerSession))
		}
		m, err := jsonrpc.DecodeMessage([]byte(bodyOf(t, resp)))
		if err != nil {
			t.Fatal(err)
		}
		res := decode[mcp.DiscoverResult](t, m.Result)
		info, ok := res.ServerInfo()
		if !res.Supports(mcp.Modern) || res.SupportedVersions[0] != mcp.Modern || !ok || info.Name != "mcpscope-demo" || res.Capabilities.Tools == nil {
			t.Errorf("discover: %s", m.Result)
		}
		if legacy := res.Supports(mcp.LatestLegacy); legacy != (eras == BothEras) {
			t.Errorf("eras %d: 2025-11-25 supported %v", eras, legacy)
		}
	}
}

// The headers must mirror the body: a missing MCP-Protocol-Version, a
// Mcp-Method or Mcp-Name that differs, a _meta version that differs are
// -32020; an unknown version is -32022 with the supported list; all 400.
// A Base64 sentinel Mcp-Name is decoded before the comparison.
func TestStatelessHeaderValidation(t *testing.T) {
	ts := startServer(t, Options{})
	call := modernBody(t, 2, mcp.MethodToolsCall, map[string]any{"name": "echo", "arguments": map[string]any{"message": "hi"}})
	for _, c := range []struct {
		headers map[string]string
		code    int
	}{
		{map[string]string{headerMethod: mcp.MethodToolsCall, headerName: "echo"}, codeHeaderMismatch},
		{modernHeaders("tools/list", "echo"), codeHeaderMismatch},
		{modernHeaders(mcp.MethodToolsCall, "read_file"), codeHeaderMismatch},
		{modernHeaders(mcp.MethodToolsCall, ""), codeHeaderMismatch},
		{modernHeaders(mcp.MethodToolsCall, "=?base64?!!!?="), codeHeaderMismatch},
		{map[string]string{headerVersion: "2099-01-01", headerMethod: mcp.MethodToolsCall, headerName: "echo"}, codeUnsupportedVersion},
	} {
		resp := ts.post(PathMCP, call, c.headers)
		rerr := rpcErrorOf(t, resp)
		if resp.StatusCode != http.StatusBadRequest || rerr.Code != c.code {
			t.Errorf("%v: %s %+v", c.headers, resp.Status, rerr)
		}
		if c.code == codeUnsupportedVersion && !strings.Contains(string(rerr.Data), `"supported":["2026-07-28"`) {
			t.Errorf("-32022 data %s", rerr.Data)
		}
	}
	resp := ts.post(PathMCP, call, modernHeaders(mcp.MethodToolsCall, "=?base64?ZWNobw==?="))
	if m, err := jsonrpc.DecodeMessage([]byte(bodyOf(t, resp))); err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(string(m.Result), `"hi"`) {
		t.Errorf("sentinel name: %s %s %v", resp.Status, m.Raw, err)
	}
}

// A stateless request that answers at once gets one JSON body; an unknown
// method is 404 with -32601; GET and DELETE that name 2026-07-28 are 405,
// with or without a session, and Mcp-Session-Id is ignored; a
// server→client request is refused with the reason.
func TestStatelessRequests(t *testing.T) {
	ts := startServer(t, Options{})
	resp := ts.post(PathMCP, modernBody(t, 3, mcp.MethodToolsList, nil), modernHeaders(mcp.MethodToolsList, ""))
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != mediaJSON || !strings.Contains(bodyOf(t, resp), `"misbehave"`) {
		t.Errorf("tools/list: %s", resp.Status)
	}
	resp = ts.post(PathMCP, modernBody(t, 4, "nope/never", nil), modernHeaders("nope/never", ""))
	if resp.StatusCode != http.StatusNotFound || rpcErrorOf(t, resp).Code != mcp.CodeMethodNotFound {
		t.Errorf("unknown method: %s", resp.Status)
	}
	sid := ts.initialize()
	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		for _, hd := range []map[string]string{{headerVersion: mcp.Modern, "Accept": mediaSSE}, {headerVersion: mcp.Modern, "Accept": mediaSSE, headerSession: sid}} {
			if r := ts.do(method, PathMCP, "", hd); r.StatusCode != http.StatusMethodNotAllowed {
				t.Errorf("%s %v: %s", method, hd, r.Status)
			}
		}
	}
	// Mcp-Session-Id on a 2026-07-28 request is ignored.
	resp = ts.post(PathMCP, modernBody(t, 6, mcp.MethodToolsList, nil), map[string]string{headerVersion: mcp.Modern, headerMethod: mcp.MethodToolsList, headerSession: "whatever"})
	if resp.StatusCode != http.StatusOK || resp.Header.Get(headerSession) != "" {
		t.Errorf("tools/list with a session header: %s", resp.Status)
	}
	resp = ts.post(PathMCP, modernBody(t, 5, mcp.MethodToolsCall, map[string]any{"name": "elicit_all"}), modernHeaders(mcp.MethodToolsCall, "elicit_all"))
	if rerr := rpcErrorOf(t, resp); !strings.Contains(rerr.Message, "MRTR") {
		t.Errorf("elicit_all: %+v", rerr)
	}
}

// A stateless call that sends something before its answer is an SSE
// stream without ids; the client closing it cancels the call.
func TestStatelessCancelByClosingStream(t *testing.T) {
	ts := startServer(t, Options{})
	_, cancelled := ts.gate("gate")
	resp := ts.post(PathMCP, modernBody(t, 6, mcp.MethodToolsCall, map[string]any{"name": "gate"}), modernHeaders(mcp.MethodToolsCall, "gate"))
	if resp.Header.Get("Content-Type") != mediaSSE {
		t.Fatalf("gate: %s %q", resp.Status, resp.Header.Get("Content-Type"))
	}
	e := readEvents(t, resp.Body).must(t)
	if e.id != "" || e.message(t).Method != mcp.MethodNotifyMessage {
		t.Fatalf("first event %+v", e)
	}
	_ = resp.Body.Close()
	<-cancelled
}

// ModernOnly refuses initialize (-32022 for its 2025 version) and answers
// GET and DELETE with 405 even with a session header.
func TestModernOnly(t *testing.T) {
	ts := startServer(t, Options{Eras: ModernOnly})
	resp := ts.post(PathMCP, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`,
		map[string]string{headerVersion: mcp.LatestLegacy, headerMethod: mcp.MethodInitialize})
	if rerr := rpcErrorOf(t, resp); resp.StatusCode != http.StatusBadRequest || rerr.Code != codeUnsupportedVersion {
		t.Errorf("initialize: %s %+v", resp.Status, rerr)
	}
	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		if r := ts.do(method, PathMCP, "", map[string]string{headerSession: "x", "Accept": mediaSSE}); r.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s: %s", method, r.Status)
		}
	}
}

// LegacyOnly answers a server/discover probe without a session with 400
// and no modern error code, so that a client falls back to initialize.
func TestLegacyOnlyRefusesDiscover(t *testing.T) {
	ts := startServer(t, Options{Eras: LegacyOnly})
	resp := ts.post(PathMCP, modernBody(t, 1, mcp.MethodDiscover, nil), modernHeaders(mcp.MethodDiscover, ""))
	var body struct{ Error jsonrpc.Error }
	if err := json.Unmarshal([]byte(bodyOf(t, resp)), &body); err != nil || resp.StatusCode != http.StatusBadRequest || body.Error.Code != mcp.CodeInvalidRequest {
		t.Errorf("discover: %s %+v %v", resp.Status, body, err)
	}
}

// Every result a 2026-07-28 client gets says "resultType":"complete"
// (after the members the result already had), beside a list's cache
// hint; a result with a resultType of its own keeps it.
func TestStatelessResultType(t *testing.T) {
	ts := startServer(t, Options{})
	for _, c := range []struct {
		method, name string
		params       map[string]any
		want         string
	}{
		{mcp.MethodToolsCall, "echo", map[string]any{"name": "echo", "arguments": map[string]any{"message": "hi"}},
			`"content":[{"type":"text","text":"hi"}],"resultType":"complete"}`},
		{mcp.MethodToolsList, "", nil, `],"resultType":"complete","ttlMs":60000,"cacheScope":"public"}`},
		{mcp.MethodPing, "", nil, `"result":{"resultType":"complete"}`},
		{mcp.MethodDiscover, "", nil, `"result":{"resultType":"complete","supportedVersions"`},
	} {
		body := bodyOf(t, ts.post(PathMCP, modernBody(t, 1, c.method, c.params), modernHeaders(c.method, c.name)))
		if !strings.Contains(body, c.want) || strings.Count(body, `"resultType"`) != 1 {
			t.Errorf("%s: want %s in\n%s", c.method, c.want, body)
		}
	}
}
