package answers

import (
	"bytes"
	"encoding/json"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// AddRecorded adds the answer a client gave, in a recording, to a question
// of method: result is the client's result to elicitation/create,
// sampling/createMessage or roots/list (the first roots/list answer sets
// the roots). A result that does not decode adds nothing.
func (f *File) AddRecorded(method string, result json.RawMessage) {
	switch method {
	case mcp.MethodElicitationCreate:
		var r Elicitation
		dec := json.NewDecoder(bytes.NewReader(result))
		dec.UseNumber() // the content's numbers as written
		if dec.Decode(&r) == nil {
			f.Elicitation = append(f.Elicitation, r)
		}
	case mcp.MethodSamplingCreateMessage:
		var r mcp.CreateMessageResult
		if json.Unmarshal(result, &r) == nil {
			f.Sampling = append(f.Sampling, Sampling{Text: contentText(r.Content), Model: r.Model, StopReason: r.StopReason})
		}
	case mcp.MethodRootsList:
		var r mcp.ListRootsResult
		if json.Unmarshal(result, &r) == nil && f.Roots == nil {
			f.Roots = r.Roots
		}
	}
}
