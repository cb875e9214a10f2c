package client

import (
	"encoding/json"
	"errors"
	"testing"
)

// A modern tools/call mirrors each annotated argument, nested ones too,
// into its Mcp-Param header; absent and null arguments send none.
func TestParamHeadersMirrorAnnotatedArguments(t *testing.T) {
	var a annotations
	a.learn(json.RawMessage(`{"tools":[{"name":"q","inputSchema":{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"n":{"type":"integer","x-mcp-header":"Count"},
		"gone":{"type":"string","x-mcp-header":"Gone"},
		"opts":{"type":"object","properties":{"fast":{"type":"boolean","x-mcp-header":"Fast"}}}}}}]}`))
	ph, err := a.headers("q", callArgs(t, `{"region":"zürich","n":42,"gone":null,"opts":{"fast":true}}`))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range ph {
		got[p.Name] = p.Value
	}
	want := map[string]string{"Region": "zürich", "Count": "42", "Fast": "true"}
	if len(got) != len(want) {
		t.Errorf("headers %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
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
		var a annotations
		a.learn(json.RawMessage(`{"tools":[{"name":"q","inputSchema":` + schema + `}]}`))
		_, err := a.headers("q", callArgs(t, `{}`))
		var refused *InvalidToolHeadersError
		if !errors.As(err, &refused) || refused.Tool != "q" || a.invalid("q") == nil {
			t.Errorf("%s: first call %v, want refused", schema, err)
		}
		if _, err := a.headers("q", callArgs(t, `{}`)); err != nil {
			t.Errorf("%s: second call %v, want sent", schema, err)
		}
	}
}

// A tool the user insisted on goes out at its first call, before it was
// even listed, without Mcp-Param headers; another invalid tool is still
// refused, and a valid or unknown tool has no problem to report.
func TestParamHeadersInsistedToolGoesOutWithoutHeaders(t *testing.T) {
	var a annotations
	a.insist("clash")
	a.learn(json.RawMessage(`{"tools":[
		{"name":"clash","inputSchema":{"properties":{"a":{"type":"string","x-mcp-header":"T"},"b":{"type":"string","x-mcp-header":"t"}}}},
		{"name":"other","inputSchema":{"properties":{"a":{"type":"object","x-mcp-header":"Obj"}}}},
		{"name":"fine","inputSchema":{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}}]}`))
	ph, err := a.headers("clash", callArgs(t, `{"a":"x","b":"y"}`))
	if err != nil {
		t.Fatalf("insisted tool refused: %v", err)
	}
	for _, p := range ph {
		t.Errorf("an insisted tool with invalid annotations sent %s", p.Name)
	}
	if _, err := a.headers("other", callArgs(t, `{}`)); err == nil {
		t.Error("a tool nobody insisted on went out")
	}
	if err := a.invalid("clash"); err == nil || err.Error() != `the x-mcp-header name "t" is used twice` {
		t.Errorf("clash: %v", err)
	}
	if a.invalid("fine") != nil || a.invalid("unknown") != nil {
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

// callArgs returns a tools/call's arguments as the engine hands them on,
// checking that they are JSON.
func callArgs(t *testing.T, args string) json.RawMessage {
	t.Helper()
	if !json.Valid([]byte(args)) {
		t.Fatalf("not JSON: %s", args)
	}
	return json.RawMessage(args)
}
