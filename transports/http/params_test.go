package mcphttp

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
)

// A modern tools/call mirrors each annotated argument, nested ones too,
// into its Mcp-Param header, encoded as the spec says; absent and null
// arguments send none.
func TestParamHeadersMirrorAnnotatedArguments(t *testing.T) {
	tr := &Transport{}
	tr.learnTools(json.RawMessage(`{"tools":[{"name":"q","inputSchema":{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"n":{"type":"integer","x-mcp-header":"Count"},
		"gone":{"type":"string","x-mcp-header":"Gone"},
		"opts":{"type":"object","properties":{"fast":{"type":"boolean","x-mcp-header":"Fast"}}}}}}]}`))
	m := modernCall(t, map[string]any{"name": "q",
		"arguments": map[string]any{"region": "zürich", "n": 42, "gone": nil, "opts": map[string]any{"fast": true}}})
	h := http.Header{}
	if err := tr.setParamHeaders(h, m); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"Mcp-Param-Region": "=?base64?esO8cmljaA==?=", "Mcp-Param-Count": "42", "Mcp-Param-Fast": "true"}
	for k, v := range want {
		if h.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, h.Get(k), v)
		}
	}
	if h.Get("Mcp-Param-Gone") != "" {
		t.Errorf("a null argument was mirrored: %q", h.Get("Mcp-Param-Gone"))
	}
}

// A tool with invalid annotations is refused once, naming why, and goes
// out when called again.
func TestParamHeadersInvalidToolRefusedUntilInsisted(t *testing.T) {
	for _, schema := range []string{
		`{"properties":{"a":{"type":"string","x-mcp-header":"Bad Name"}}}`,
		`{"properties":{"a":{"type":"string","x-mcp-header":"X"},"b":{"type":"string","x-mcp-header":"x"}}}`,
		`{"properties":{"a":{"type":"object","x-mcp-header":"Obj"}}}`,
		`{"properties":{"a":{"type":"array","items":{"type":"string","x-mcp-header":"Item"}}}}`,
		`{"properties":{"a":{"type":"number","x-mcp-header":"Ratio"}}}`,
		`{"$defs":{"r":{"type":"string","x-mcp-header":"Def"}},"properties":{"a":{"$ref":"#/$defs/r"}}}`,
	} {
		tr := &Transport{}
		tr.learnTools(json.RawMessage(`{"tools":[{"name":"q","inputSchema":` + schema + `}]}`))
		m := modernCall(t, map[string]any{"name": "q", "arguments": map[string]any{}})
		err := tr.setParamHeaders(http.Header{}, m)
		var refused *client.InvalidToolHeadersError
		if !errors.As(err, &refused) || refused.Tool != "q" || tr.InvalidToolHeaders("q") == nil {
			t.Errorf("%s: first call %v, want refused", schema, err)
		}
		if err := tr.setParamHeaders(http.Header{}, m); err != nil {
			t.Errorf("%s: second call %v, want sent", schema, err)
		}
	}
}

// A tool the user insisted on goes out at its first call, before it was
// even listed, without Mcp-Param headers; another invalid tool is still
// refused, and a valid or unknown tool has no problem to report.
func TestParamHeadersInsistedToolGoesOutWithoutHeaders(t *testing.T) {
	tr := &Transport{}
	tr.InsistOnTool("clash")
	tr.learnTools(json.RawMessage(`{"tools":[
		{"name":"clash","inputSchema":{"properties":{"a":{"type":"string","x-mcp-header":"T"},"b":{"type":"string","x-mcp-header":"t"}}}},
		{"name":"other","inputSchema":{"properties":{"a":{"type":"object","x-mcp-header":"Obj"}}}},
		{"name":"fine","inputSchema":{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}}]}`))
	h := http.Header{}
	if err := tr.setParamHeaders(h, modernCall(t, map[string]any{"name": "clash", "arguments": map[string]any{"a": "x", "b": "y"}})); err != nil {
		t.Fatalf("insisted tool refused: %v", err)
	}
	for k := range h {
		t.Errorf("an insisted tool with invalid annotations sent %s", k)
	}
	if err := tr.setParamHeaders(http.Header{}, modernCall(t, map[string]any{"name": "other", "arguments": map[string]any{}})); err == nil {
		t.Error("a tool nobody insisted on went out")
	}
	if err := tr.InvalidToolHeaders("clash"); err == nil || err.Error() != `the x-mcp-header name "t" is used twice` {
		t.Errorf("clash: %v", err)
	}
	if tr.InvalidToolHeaders("fine") != nil || tr.InvalidToolHeaders("unknown") != nil {
		t.Error("a valid or unknown tool has a problem")
	}
}

// An x-mcp-header member inside a keyword whose value is an instance
// (default, const, enum, examples) is data, not an annotation.
func TestParamHeadersInstanceValuesAreNotAnnotations(t *testing.T) {
	b, err := scanBindings(json.RawMessage(`{"properties":{
		"opts":{"type":"object","default":{"x-mcp-header":"No"},"examples":[{"x-mcp-header":"No"}]},
		"kind":{"type":"string","x-mcp-header":"Kind","const":"k","enum":[{"x-mcp-header":"No"}]}}}`))
	if err != nil || len(b) != 1 || b[0].header != "Kind" {
		t.Errorf("bindings %v, %v; want Kind alone", b, err)
	}
}

// modernCall is what readModern reads of a 2026-07-28 tools/call with
// params (the _meta added).
func modernCall(t *testing.T, params map[string]any) *modernMeta {
	t.Helper()
	params["_meta"] = map[string]any{"io.modelcontextprotocol/protocolVersion": proto.Modern}
	m, err := proto.NewRequest(proto.IntID(1), proto.MethodToolsCall, params)
	if err != nil {
		t.Fatal(err)
	}
	mm := readModern(m)
	if mm == nil {
		t.Fatal("readModern read no 2026-07-28 _meta")
	}
	return mm
}

// Through the engine: a 2026-07-28 session learns from its tools/list
// which tool has invalid annotations and says why; its call is refused,
// not sent, until the session insists. A 2025-11-25 session mirrors
// nothing, so the same listing flags nothing and the call goes out.
func TestParamHeadersThroughTheSession(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	f.on(proto.MethodDiscover, func(w http.ResponseWriter, _ *http.Request, m *proto.Message) {
		writeJSON(w, http.StatusOK, resultOf(m, `{"supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{"tools":{}}}`))
	})
	f.on(proto.MethodToolsList, func(w http.ResponseWriter, _ *http.Request, m *proto.Message) {
		writeJSON(w, http.StatusOK, resultOf(m, `{"tools":[{"name":"clash","inputSchema":{"type":"object","properties":{
			"a":{"type":"string","x-mcp-header":"Tenant"},"b":{"type":"string","x-mcp-header":"tenant"}}}}]}`))
	})
	clash := map[string]any{"name": "clash", "arguments": map[string]any{"a": "x"}}

	s := connect(t, f.URL(), nil, client.Options{})
	if _, err := s.call(proto.MethodToolsList, nil); err != nil {
		t.Fatal(err)
	}
	bad := s.InvalidToolHeaders("clash")
	if bad == nil || bad.Tool != "clash" || !strings.Contains(bad.Error(), `"tenant" is used twice`) {
		t.Fatalf("InvalidToolHeaders = %v", bad)
	}
	_, err := s.call(proto.MethodToolsCall, clash)
	var refused *client.InvalidToolHeadersError
	if !errors.As(err, &refused) || len(f.requests(posted(proto.MethodToolsCall))) != 0 {
		t.Fatalf("tools/call: %v, want refused before sending", err)
	}
	s.InsistOnTool("clash")
	if _, err := s.call(proto.MethodToolsCall, clash); err != nil {
		t.Fatalf("insisted tools/call: %v", err)
	}
	if calls := f.requests(posted(proto.MethodToolsCall)); len(calls) != 1 || calls[0].Header.Get("Mcp-Param-Tenant") != "" {
		t.Errorf("insisted tools/call: %d POSTs, headers %v", len(calls), calls)
	}
	_ = s.Close()

	legacy := connect(t, f.URL(), nil, client.Options{ProtocolVersion: proto.ProtocolVersion20251125})
	if _, err := legacy.call(proto.MethodToolsList, nil); err != nil {
		t.Fatal(err)
	}
	if bad := legacy.InvalidToolHeaders("clash"); bad != nil {
		t.Errorf("a 2025-11-25 session flags %v", bad)
	}
	if _, err := legacy.call(proto.MethodToolsCall, clash); err != nil {
		t.Errorf("a 2025-11-25 tools/call: %v", err)
	}
}
