package prompts

import (
	"bytes"
	"encoding/json"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// jsonString encodes s as a JSON string, leaving <, > and & as they are.
func jsonString(s string) json.RawMessage { return jsonrpc.QuoteJSON(s) }

// compactJSON removes the insignificant space of a JSON value; a value
// that is not JSON (or is empty) becomes null.
func compactJSON(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return json.RawMessage("null")
	}
	return b.Bytes()
}

// sameJSON reports whether two JSON values are equal: 1 and 1.0 are, and
// objects are equal whatever the order of their keys.
func sameJSON(a, b json.RawMessage) bool {
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return bytes.Equal(bytes.TrimSpace(a), bytes.TrimSpace(b))
	}
	ca, _ := json.Marshal(va)
	cb, _ := json.Marshal(vb)
	return bytes.Equal(ca, cb)
}

// display is how a JSON value reads as a label: a string without its
// quotes, anything else as compact JSON.
func display(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(compactJSON(raw))
}
