package client

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCheckToolResult(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)
	cases := []struct {
		name   string
		result string
		schema json.RawMessage
		want   ToolFailureKind
		detail string
	}{
		{"success", `{"content":[{"type":"text","text":"ok"}]}`, nil, 0, ""},
		{"isError", `{"content":[{"type":"image","data":""},{"type":"text","text":"ENOENT:\\n no such file \\u001b[31m"}],"isError":true}`, nil, ToolIsError, "ENOENT"},
		{"isError wins over schema", `{"content":[],"isError":true}`, schema, ToolIsError, ""},
		{"missing structured", `{"content":[]}`, schema, ToolOutputMissing, ""},
		{"invalid structured", `{"content":[],"structuredContent":{"n":"x"}}`, schema, ToolOutputInvalid, "/n"},
		{"valid structured", `{"content":[],"structuredContent":{"n":3}}`, schema, 0, ""},
		{"asks for input", `{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create"}}}`, schema, 0, ""},
		{"not an object", `42`, schema, 0, ""},
		{"isError beside an odd member", `{"content":[{"type":"resource_link","uri":"file:///a","name":"a","size":"12"},{"type":"text","text":"boom"}],"isError":true}`, nil, ToolIsError, "boom"},
		{"runs as a task", `{"task":{"taskId":"t1","status":"working"}}`, schema, 0, ""},
		{"isError as a string", `{"content":[],"isError":"true"}`, nil, 0, ""},
		{"schema refers to itself", `{"content":[],"structuredContent":{"n":3}}`, json.RawMessage(`{"$ref":"#"}`), 0, ""},
		{"number too large to check", `{"content":[],"structuredContent":{"n":1e999999}}`, schema, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := CheckToolResult("t", json.RawMessage(c.result), c.schema)
			if c.want == 0 {
				if f != nil {
					t.Fatalf("got failure %v, want none", f)
				}
				return
			}
			if f == nil || f.Kind != c.want {
				t.Fatalf("got %v, want kind %d", f, c.want)
			}
			if !strings.Contains(f.Detail, c.detail) || strings.ContainsAny(f.Error(), "\x1b\n") {
				t.Fatalf("detail %q (error %q), want it to contain %q, on one safe line", f.Detail, f.Error(), c.detail)
			}
		})
	}
}

func TestOutputSchemas(t *testing.T) {
	got := OutputSchemas([]json.RawMessage{
		json.RawMessage(`{"name":"a","outputSchema":{"type":"object"},"inputSchema":"odd"}`),
		json.RawMessage(`{"name":"b"}`),
		json.RawMessage(`{"name":"c","outputSchema":null}`),
		json.RawMessage(`7`),
	})
	if len(got) != 1 || string(got["a"]) != `{"type":"object"}` {
		t.Fatalf("got %v, want only a's schema", got)
	}
}
