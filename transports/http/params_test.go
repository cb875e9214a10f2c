package mcphttp

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

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
	} {
		tr := &Transport{}
		tr.learnTools(json.RawMessage(`{"tools":[{"name":"q","inputSchema":` + schema + `}]}`))
		m := modernCall(t, map[string]any{"name": "q", "arguments": map[string]any{}})
		err := tr.setParamHeaders(http.Header{}, m)
		if err == nil || !strings.Contains(err.Error(), "invalid x-mcp-header") {
			t.Errorf("%s: first call %v, want refused", schema, err)
		}
		if err := tr.setParamHeaders(http.Header{}, m); err != nil {
			t.Errorf("%s: second call %v, want sent", schema, err)
		}
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
