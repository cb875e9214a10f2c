package mock

import (
	"bytes"
	"encoding/json"
)

// normalParams turns absent or null params into {}.
func normalParams(p json.RawMessage) json.RawMessage {
	if t := bytes.TrimSpace(p); len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return json.RawMessage("{}")
	}
	return p
}

// progressToken returns the request's _meta.progressToken as compact
// JSON, or "".
func progressToken(params json.RawMessage) string {
	var p struct {
		Meta json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	return memberJSON(p.Meta, "progressToken")
}

// memberJSON returns the member name of the object obj as compact JSON,
// or "" when obj is no object or lacks it.
func memberJSON(obj json.RawMessage, name string) string {
	var o map[string]json.RawMessage
	if json.Unmarshal(obj, &o) != nil || o[name] == nil {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, o[name]) != nil {
		return ""
	}
	return b.String()
}

// compact returns a copy of a recorded message on one line: a body read
// from an SSE event may span several.
func compact(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return bytes.Clone(raw)
	}
	return b.Bytes()
}
