package compose

import (
	"bytes"
	"encoding/json"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// maxComposeHistory bounds the calls the composer remembers.
const maxComposeHistory = 100

// composeCall is one message the composer sends: a request, or a
// notification when notify is set, with its params as JSON (nil: none).
type composeCall struct {
	method string
	notify bool
	params json.RawMessage
}

// kind names what the call is sent as.
func (c composeCall) kind() string {
	if c.notify {
		return "notification"
	}
	return "request"
}

// wireParams is what the session is given as params: nothing for empty or
// null params (JSON-RPC has no null params), the JSON otherwise.
func (c composeCall) wireParams() any {
	p := bytes.TrimSpace(c.params)
	if len(p) == 0 || string(p) == "null" {
		return nil
	}
	return json.RawMessage(p)
}

// toolFailure judges the answer to a tools/call request: a result that is
// nonetheless a failure (client.CheckToolResult, by the tool's
// outputSchema, compiled apart: it is judged in a tea.Cmd, and the
// index's judgements against it never wait for this one); nil for any
// other call or answer.
func (c composeCall) toolFailure(result json.RawMessage, err error, outputSchema json.RawMessage) *client.ToolFailure {
	if c.notify || c.method != mcp.MethodToolsCall || err != nil {
		return nil
	}
	return client.ToolResultCheckerApart(c.toolName(), outputSchema)(result)
}

// toolName is the tool a tools/call names; "" for any other call.
func (c composeCall) toolName() string {
	if c.method != mcp.MethodToolsCall {
		return ""
	}
	var p struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(c.params, &p)
	return p.Name
}

// same reports whether two calls send the same message.
func (c composeCall) same(o composeCall) bool {
	return c.method == o.method && c.notify == o.notify && bytes.Equal(c.params, o.params)
}

// History is what the composer sent during this run, newest first,
// bounded; sending the newest call again does not add a twin.
type History struct {
	calls []composeCall
}

// add remembers a sent call.
func (h *History) add(c composeCall) {
	if len(h.calls) > 0 && h.calls[0].same(c) {
		return
	}
	c.params = append(json.RawMessage(nil), c.params...)
	h.calls = append([]composeCall{c}, h.calls[:min(len(h.calls), maxComposeHistory-1)]...)
}
