package demohttp

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
)

// modernBody is a 2026-07-28 request: _meta carries the version, client
// info and capabilities.
func modernBody(t *testing.T, id int, method string, params map[string]any) string {
	t.Helper()
	if params == nil {
		params = map[string]any{}
	}
	params["_meta"] = map[string]any{proto.MetaProtocolVersion: proto.Modern,
		proto.MetaClientInfo: map[string]string{"name": "raw", "version": "1"}, proto.MetaClientCapabilities: map[string]any{}}
	m, err := proto.NewRequest(proto.IntID(int64(id)), method, params)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := m.EncodeJSON()
	return string(b)
}

// modernHeaders are the metadata headers of a 2026-07-28 request.
func modernHeaders(method, name string) map[string]string {
	hd := map[string]string{headerVersion: proto.Modern, headerMethod: method}
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
		resp := ts.post(PathMCP, modernBody(t, 1, proto.MethodDiscover, nil), modernHeaders(proto.MethodDiscover, ""))
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != mediaJSON || resp.Header.Get(headerSession) != "" {
			t.Fatalf("discover: %s %q session %q", resp.Status, resp.Header.Get("Content-Type"), resp.Header.Get(headerSession))
		}
		m, err := proto.DecodeMessage([]byte(bodyOf(t, resp)))
		if err != nil {
			t.Fatal(err)
		}
		res := decode[proto.DiscoverResult](t, m.Result)
		info, ok := res.ServerInfo()
		if !res.Supports(proto.Modern) || res.SupportedVersions[0] != proto.Modern || !ok || info.Name != "mcpscope-demo" || res.Capabilities.Tools == nil {
			t.Errorf("discover: %s", m.Result)
		}
		if legacy := res.Supports(proto.LatestLegacy); legacy != (eras == BothEras) {
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
	call := modernBody(t, 2, proto.MethodToolsCall, map[string]any{"name": "echo", "arguments": map[string]any{"message": "hi"}})
	for _, c := range []struct {
		headers map[string]string
		code    int
	}{
		{map[string]string{headerMethod: proto.MethodToolsCall, headerName: "echo"}, codeHeaderMismatch},
		{modernHeaders("tools/list", "echo"), codeHeaderMismatch},
		{modernHeaders(proto.MethodToolsCall, "read_file"), codeHeaderMismatch},
		{modernHeaders(proto.MethodToolsCall, ""), codeHeaderMismatch},
		{modernHeaders(proto.MethodToolsCall, "=?base64?!!!?="), codeHeaderMismatch},
		{map[string]string{headerVersion: "2099-01-01", headerMethod: proto.MethodToolsCall, headerName: "echo"}, codeUnsupportedVersion},
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
	resp := ts.post(PathMCP, call, modernHeaders(proto.MethodToolsCall, "=?base64?ZWNobw==?="))
	if m, err := proto.DecodeMessage([]byte(bodyOf(t, resp))); err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(string(m.Result), `"hi"`) {
		t.Errorf("sentinel name: %s %s %v", resp.Status, m.Raw, err)
	}
}

// A stateless request that answers at once gets one JSON body; an unknown
// method is 404 with -32601; GET and DELETE that name 2026-07-28 are 405,
// with or without a session, and Mcp-Session-Id is ignored; a
// server→client request is refused with the reason.
func TestStatelessRequests(t *testing.T) {
	ts := startServer(t, Options{})
	resp := ts.post(PathMCP, modernBody(t, 3, proto.MethodToolsList, nil), modernHeaders(proto.MethodToolsList, ""))
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != mediaJSON || !strings.Contains(bodyOf(t, resp), `"misbehave"`) {
		t.Errorf("tools/list: %s", resp.Status)
	}
	resp = ts.post(PathMCP, modernBody(t, 4, "nope/never", nil), modernHeaders("nope/never", ""))
	if resp.StatusCode != http.StatusNotFound || rpcErrorOf(t, resp).Code != proto.CodeMethodNotFound {
		t.Errorf("unknown method: %s", resp.Status)
	}
	sid := ts.initialize()
	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		for _, hd := range []map[string]string{{headerVersion: proto.Modern, "Accept": mediaSSE}, {headerVersion: proto.Modern, "Accept": mediaSSE, headerSession: sid}} {
			if r := ts.do(method, PathMCP, "", hd); r.StatusCode != http.StatusMethodNotAllowed {
				t.Errorf("%s %v: %s", method, hd, r.Status)
			}
		}
	}
	// Mcp-Session-Id on a 2026-07-28 request is ignored.
	resp = ts.post(PathMCP, modernBody(t, 6, proto.MethodToolsList, nil), map[string]string{headerVersion: proto.Modern, headerMethod: proto.MethodToolsList, headerSession: "whatever"})
	if resp.StatusCode != http.StatusOK || resp.Header.Get(headerSession) != "" {
		t.Errorf("tools/list with a session header: %s", resp.Status)
	}
	resp = ts.post(PathMCP, modernBody(t, 5, proto.MethodToolsCall, map[string]any{"name": "elicit_all"}), modernHeaders(proto.MethodToolsCall, "elicit_all"))
	if rerr := rpcErrorOf(t, resp); !strings.Contains(rerr.Message, "MRTR") {
		t.Errorf("elicit_all: %+v", rerr)
	}
}

// A stateless call that sends something before its answer is an SSE
// stream without ids; the client closing it cancels the call.
func TestStatelessCancelByClosingStream(t *testing.T) {
	ts := startServer(t, Options{})
	_, cancelled := ts.gate("gate")
	resp := ts.post(PathMCP, modernBody(t, 6, proto.MethodToolsCall, map[string]any{"name": "gate"}), modernHeaders(proto.MethodToolsCall, "gate"))
	if resp.Header.Get("Content-Type") != mediaSSE {
		t.Fatalf("gate: %s %q", resp.Status, resp.Header.Get("Content-Type"))
	}
	e := readEvents(t, resp.Body).must(t)
	if e.id != "" || e.message(t).Method != proto.MethodNotifyMessage {
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
		map[string]string{headerVersion: proto.LatestLegacy, headerMethod: proto.MethodInitialize})
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
	resp := ts.post(PathMCP, modernBody(t, 1, proto.MethodDiscover, nil), modernHeaders(proto.MethodDiscover, ""))
	var body struct{ Error proto.Error }
	if err := json.Unmarshal([]byte(bodyOf(t, resp)), &body); err != nil || resp.StatusCode != http.StatusBadRequest || body.Error.Code != proto.CodeInvalidRequest {
		t.Errorf("discover: %s %+v %v", resp.Status, body, err)
	}
}
