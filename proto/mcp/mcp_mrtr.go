package mcp

import (
	"encoding/json"
	"fmt"
	"sort"
)

// Result types of the modern era. A result without resultType is complete.
const (
	ResultTypeComplete      = "complete"
	ResultTypeInputRequired = "input_required"
)

// InputRequest is one question a server asks inside an input_required
// result (multi round-trip request): elicitation/create,
// sampling/createMessage or roots/list, with that request's params.
type InputRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// InputRequired holds the members of a modern-era result that ask the
// client for input before the server can finish.
type InputRequired struct {
	ResultType    string                  `json:"resultType,omitempty"`
	InputRequests map[string]InputRequest `json:"inputRequests,omitempty"`
	RequestState  string                  `json:"requestState,omitempty"`
}

// NeedsInput reports whether the result asks for input.
func (r *InputRequired) NeedsInput() bool { return r.ResultType == ResultTypeInputRequired }

// InputKeys returns the keys of the input requests in sorted order, the
// order in which mcpscope answers them.
func (r *InputRequired) InputKeys() []string {
	keys := make([]string, 0, len(r.InputRequests))
	for k := range r.InputRequests {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// InputRetry holds the members a retried request adds: each input request's
// answer under its key, and the server's requestState echoed unchanged
// (absent when the server sent none).
type InputRetry struct {
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
	RequestState   string                     `json:"requestState,omitempty"`
}

// DecodeInputRequired reads the MRTR members of any result. A result that
// is not a JSON object is an error; a result without them decodes as
// complete.
func DecodeInputRequired(result json.RawMessage) (InputRequired, error) {
	var r InputRequired
	if err := json.Unmarshal(result, &r); err != nil {
		return InputRequired{}, fmt.Errorf("result is not an MCP result object: %w", err)
	}
	for k, ir := range r.InputRequests {
		if ir.Method == "" {
			return InputRequired{}, fmt.Errorf("input request %q names no method", k)
		}
	}
	return r, nil
}
