package mcp

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

func TestKnownVersions(t *testing.T) {
	for _, v := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"} {
		if !KnownVersion(v) {
			t.Errorf("KnownVersion(%q) = false", v)
		}
	}
	for _, v := range []string{"", "2099-01-01", "2025-11-24", "2026-07-28 "} {
		if KnownVersion(v) {
			t.Errorf("KnownVersion(%q) = true", v)
		}
	}
	if !IsModernVersion(Modern) || IsLegacyVersion(Modern) || !IsLegacyVersion(LatestLegacy) || LatestLegacy != "2025-11-25" {
		t.Fatal("era classification of the pinned versions is wrong")
	}
}

func TestCapabilitiesKeepUnknownMembers(t *testing.T) {
	in := `{"tools":{"listChanged":true},"resources":{"subscribe":true},"logging":{},"zeta":{"x":1},"alpha":[1,2]}`
	var caps ServerCapabilities
	if err := json.Unmarshal([]byte(in), &caps); err != nil {
		t.Fatal(err)
	}
	if caps.Tools == nil || !caps.Tools.ListChanged || caps.Resources == nil || !caps.Resources.Subscribe || caps.Logging == nil {
		t.Fatalf("known members lost: %+v", caps)
	}
	if len(caps.Unknown) != 2 || string(caps.Unknown["zeta"]) != `{"x":1}` {
		t.Fatalf("unknown members %v", caps.Unknown)
	}
	out, err := json.Marshal(caps)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"tools":{"listChanged":true},"resources":{"subscribe":true},"logging":{},"alpha":[1,2],"zeta":{"x":1}}`
	if string(out) != want {
		t.Fatalf("re-encoded %s, want %s", out, want)
	}

	var cc ClientCapabilities
	if err := json.Unmarshal([]byte(`{"elicitation":{"form":{},"url":{}},"roots":{"listChanged":true},"future":true}`), &cc); err != nil {
		t.Fatal(err)
	}
	if cc.Elicitation == nil || cc.Elicitation.URL == nil || !cc.Roots.ListChanged || string(cc.Unknown["future"]) != "true" {
		t.Fatalf("client capabilities %+v", cc)
	}
	if out, _ := json.Marshal(ClientCapabilities{}); string(out) != `{}` {
		t.Fatalf("empty capabilities encode as %s", out)
	}
}

func TestDiscoverResultOfTheGoSDK(t *testing.T) {
	// As the Go SDK's conformance server answers on stdio.
	raw := `{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcp-conformance-test-server","version":"1.0.0"}},"ttlMs":0,"cacheScope":"public","supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{"completions":{},"tools":{"listChanged":true}}}`
	var r DiscoverResult
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		t.Fatal(err)
	}
	info, ok := r.ServerInfo()
	if !ok || info.Name != "mcp-conformance-test-server" || !r.Supports(Modern) || r.Supports("2024-11-05") ||
		r.TTLMs == nil || r.CacheScope != "public" || r.Capabilities.Completions == nil {
		t.Fatalf("decoded %+v", r)
	}
}

func TestDecodeInputRequired(t *testing.T) {
	raw := `{"content":null,"requestState":"s","resultType":"input_required","inputRequests":{"b":{"method":"roots/list"},"a":{"method":"elicitation/create","params":{"mode":"form","message":"?"}}}}`
	ir, err := DecodeInputRequired(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	if !ir.NeedsInput() || ir.RequestState != "s" || !reflect.DeepEqual(ir.InputKeys(), []string{"a", "b"}) {
		t.Fatalf("decoded %+v", ir)
	}
	var p ElicitRequestParams
	if err := json.Unmarshal(ir.InputRequests["a"].Params, &p); err != nil || p.EffectiveMode() != ElicitModeForm {
		t.Fatalf("elicitation params %+v", p)
	}
	if _, err := DecodeInputRequired(json.RawMessage(`{"resultType":"input_required","inputRequests":{"x":{}}}`)); err == nil {
		t.Fatal("an input request without a method was accepted")
	}
	if ir, err := DecodeInputRequired(json.RawMessage(`{"content":[]}`)); err != nil || ir.NeedsInput() {
		t.Fatalf("a plain result: %+v %v", ir, err)
	}
}

func TestRetryParamsShape(t *testing.T) {
	p := CallToolParams{Name: "t", InputRetry: InputRetry{InputResponses: map[string]json.RawMessage{"a": json.RawMessage(`{"action":"accept"}`)}, RequestState: "s"}}
	out, _ := json.Marshal(p)
	if string(out) != `{"name":"t","inputResponses":{"a":{"action":"accept"}},"requestState":"s"}` {
		t.Fatalf("retry params %s", out)
	}
	n, _ := json.Marshal(ProgressNotificationParams{ProgressToken: jsonrpc.StringID("tok"), Progress: 2})
	if string(n) != `{"progressToken":"tok","progress":2}` {
		t.Fatalf("progress %s", n)
	}
}
