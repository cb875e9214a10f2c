package against

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/recordings"
)

// The engine's own _meta members leave a recorded request; the caller's
// stay.
func TestWithoutEngineMeta(t *testing.T) {
	for in, want := range map[string]string{
		`{"name":"x"}`: `{"name":"x"}`,
		`[1,"_meta"]`:  `[1,"_meta"]`,
		`{"name":"x","_meta":{"progressToken":3,"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{},"io.modelcontextprotocol/clientCapabilities":{}}}`: `{"name":"x"}`,
		`{"_meta":{"progressToken":3,"mine":true},"name":"x"}`: `{"_meta":{"mine":true},"name":"x"}`,
		`{"_meta":"odd"}`: `{"_meta":"odd"}`,
	} {
		if got := string(withoutEngineMeta(json.RawMessage(in))); got != want {
			t.Errorf("withoutEngineMeta(%s) = %s, want %s", in, got, want)
		}
	}
}

// Items of every keyed list are named when added, removed or changed, and
// what changed in a changed one.
func TestItemLines(t *testing.T) {
	o, err := CompareOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	diffs := func(old, new string) []string {
		return answerDiffs([]byte(old), []byte(new), o)
	}
	got := diffs(
		`{"result":{"tools":[{"name":"a","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}},{"name":"b"}],"prompts":[{"name":"p"}],"resources":[{"uri":"u:1","name":"one"}]}}`,
		`{"result":{"tools":[{"name":"c"},{"name":"a","inputSchema":{"type":"object","required":["x"]},"annotations":{},"_meta":{"x":1}}],"prompts":[],"resources":[{"uri":"u:1","name":"uno"}]}}`)
	want := []string{
		`prompt "p" removed`,
		`resource "u:1" changed: name`,
		`tool "a" changed: annotations, schema`,
		`tool "b" removed`,
		`tool "c" added`,
		`$.result.prompts[0]: {"name":"p"} → (none)`,
		`$.result.resources[0].name: "one" → "uno"`,
		`$.result.tools[1].annotations.readOnlyHint: true → (none)`,
		`$.result.tools[1].inputSchema.required: (none) → ["x"]`,
		`$.result.tools[1]: {"name":"b"} → (none)`,
		`$.result.tools[0]: (none) → {"name":"c"}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// An error where a result was, and the volatile members ignored.
	got = diffs(string(answerDocument(json.RawMessage(`{"sessionId":"1","createdAt":5,"x":1}`), nil)),
		string(answerDocument(nil, &jsonrpc.Error{Code: -32602, Message: "bad"})))
	if want := []string{`$.error: (none) → {"code":-32602,"message":"bad"}`, `$.result: {"createdAt":5,"sessionId":"1","x":1} → (none)`}; !slices.Equal(got, want) {
		t.Errorf("lines %q", got)
	}
	if got := diffs(`{"result":{"sessionId":"1","_meta":{"a":1},"deep":{"timestamp":1}}}`, `{"result":{"sessionId":"2","deep":{"timestamp":2}}}`); len(got) != 0 {
		t.Errorf("volatile members compared: %q", got)
	}
	if got := diffs(`{"result":1}`, `{"result":`); len(got) != 1 || !strings.HasPrefix(got[0], "the answers differ, and cannot be compared by path: ") {
		t.Errorf("a broken answer: %q", got)
	}
}

// A recording made with credentials masked compares a new answer masked
// the same way: a token the server issues again is no difference.
func TestReplayAgainstMasksTheNewAnswer(t *testing.T) {
	recorded := recordings.Redact([]byte(`{"result":{"nextCursor":"c1","sessionToken":"tok-aaaaaaaa"}}`))
	fresh := []byte(`{"result":{"nextCursor":"c1","sessionToken":"tok-bbbbbbbb"}}`)
	o, err := CompareOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	if lines := answerDiffs(recorded, fresh, o); len(lines) == 0 {
		t.Fatal("unmasked, the fresh token should differ")
	}
	if lines := answerDiffs(recorded, recordings.Redact(fresh), o); len(lines) != 0 {
		t.Errorf("masked alike, they differ: %v", lines)
	}
}
