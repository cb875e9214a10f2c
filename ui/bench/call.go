package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/load"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Call is the request a bench repeats: a method and its params, as the
// session sends them (it adds its own _meta to each).
type Call struct {
	Method string
	Params json.RawMessage // a JSON object, or nil for none
	// Tool is the tool a tools/call calls ("" for any other method): its
	// results are judged by client.ToolResultChecker.
	Tool string
}

// ToolCall is the tools/call of tool with args (nil or empty: no
// arguments).
func ToolCall(tool string, args json.RawMessage) Call {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage(`{}`)
	}
	params, _ := json.Marshal(map[string]any{"name": tool, "arguments": args})
	return Call{Method: mcp.MethodToolsCall, Params: params, Tool: tool}
}

// ErrNotARequest is why a message that is no request of the client cannot
// be benched.
var ErrNotARequest = errors.New("bench repeats a request: pick a request frame mcpscope sent (→)")

// FromRequest is the call a recorded request makes again: its method and
// params, the _meta member dropped (the session puts its own, with a
// progress token of each new request, into every call). The handshake
// cannot be benched.
func FromRequest(m *jsonrpc.Message) (Call, error) {
	if m == nil || m.Kind() != jsonrpc.KindRequest {
		return Call{}, ErrNotARequest
	}
	if m.Method == mcp.MethodInitialize {
		return Call{}, errors.New("bench repeats a request: initialize is the handshake, not a call to repeat")
	}
	c := Call{Method: m.Method}
	if len(bytes.TrimSpace(m.Params)) == 0 || string(bytes.TrimSpace(m.Params)) == "null" {
		return c, nil
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(m.Params, &members); err != nil {
		return Call{}, fmt.Errorf("bench repeats a request whose params are a JSON object: %w", err)
	}
	delete(members, "_meta")
	params, err := json.Marshal(members)
	if err != nil {
		return Call{}, fmt.Errorf("bench: the params cannot be encoded again: %w", err)
	}
	c.Params = params
	if m.Method == mcp.MethodToolsCall {
		_ = json.Unmarshal(members["name"], &c.Tool)
	}
	return c, nil
}

// loadCall is the call the engine repeats: one request on s, a tool's
// result judged by its outputSchema (a tool that reports isError, or an
// answer the schema refuses, is an error of the run), built as the
// headless bench builds it (load.SessionCall). The TUI times a call from
// just before the session sends it to the moment the session hands its
// answer back: it passes no wire clock, since its capture store keeps
// frames for the screen, not a per-request index a run could read at
// thousands of calls a second.
func (c Call) loadCall(s *client.Session, outputSchema json.RawMessage) load.Call {
	return load.SessionCall(s, load.Request{Method: c.Method, Params: c.Params, Tool: c.Tool, OutputSchema: outputSchema}, nil)
}
