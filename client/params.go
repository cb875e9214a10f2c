package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// member is one key of a params object, in the object's order.
type member = jsonrpc.Member

// marshalParams turns Call's params into JSON (nil stays nil).
func marshalParams(params any) (json.RawMessage, error) { return jsonrpc.MarshalParams(params) }

// objectMembers splits a JSON object into its members in order. Empty input
// and null are an empty object.
func objectMembers(obj json.RawMessage) ([]member, error) {
	trimmed := bytes.TrimSpace(obj)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("params must be a JSON object to carry _meta or retry members")
	}
	var ms []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("params are not valid JSON: %w", err)
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("params member %q is not valid JSON: %w", key, err)
		}
		ms = append(ms, member{Key: key, Value: v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("params are not valid JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("params hold data after the JSON object")
	}
	return ms, nil
}

// encodeMembers writes members back as one JSON object.
func encodeMembers(ms []member) json.RawMessage { return jsonrpc.EncodeObject(ms) }

// setMember replaces the member named key, or appends it; a nil value
// removes it.
func setMember(ms []member, key string, value json.RawMessage) []member {
	for i := range ms {
		if ms[i].Key == key {
			if value == nil {
				return append(ms[:i:i], ms[i+1:]...)
			}
			ms[i].Value = value
			return ms
		}
	}
	if value == nil {
		return ms
	}
	return append(ms, member{Key: key, Value: value})
}

// withMeta returns params with the given _meta members added. A member the
// caller already put in _meta is kept unless override is set.
func withMeta(params json.RawMessage, meta []member, override bool) (json.RawMessage, error) {
	ms, err := objectMembers(params)
	if err != nil {
		return nil, err
	}
	var existing []member
	at := -1
	for i, m := range ms {
		if m.Key == "_meta" {
			at = i
			if existing, err = objectMembers(m.Value); err != nil {
				return nil, fmt.Errorf("params._meta must be a JSON object")
			}
		}
	}
	for _, m := range meta {
		if override || !hasMember(existing, m.Key) {
			existing = setMember(existing, m.Key, m.Value)
		}
	}
	value := encodeMembers(existing)
	if at >= 0 {
		ms[at].Value = value
	} else {
		ms = append([]member{{Key: "_meta", Value: value}}, ms...)
	}
	return encodeMembers(ms), nil
}

func hasMember(ms []member, key string) bool {
	for _, m := range ms {
		if m.Key == key {
			return true
		}
	}
	return false
}

// mustJSON encodes a value built by this package (never fails for them).
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("null")
	}
	return b
}
