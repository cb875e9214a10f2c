package answers

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// Step is one step of `mcpscope script`: a tool to run (interactively
// when the server supports it, else through tools/call) or any JSON-RPC
// method to call. Exactly one of Tool and Method is set.
type Step struct {
	// Tool names the tool to run.
	Tool string `json:"tool,omitempty"`
	// Arguments are the tool's arguments (a JSON object), sent as
	// tools/call's arguments or interaction.start's initialParams.
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// Method is the JSON-RPC method to call.
	Method string `json:"method,omitempty"`
	// Params are the method's params (a JSON object or array).
	Params json.RawMessage `json:"params,omitempty"`
}

// Validate checks that the step names one thing to do, with fitting
// arguments. Its errors read after "step N ".
func (s Step) Validate() error {
	switch {
	case s.Tool == "" && s.Method == "":
		return errors.New("names neither a tool nor a method; give tool: NAME or method: METHOD")
	case s.Tool != "" && s.Method != "":
		return fmt.Errorf("names both the tool %q and the method %q; give one per step", s.Tool, s.Method)
	case s.Tool != "" && IsPresent(s.Params):
		return fmt.Errorf("gives params to the tool %q; a tool takes arguments", s.Tool)
	case s.Method != "" && IsPresent(s.Arguments):
		return fmt.Errorf("gives arguments to the method %q; a method takes params", s.Method)
	case IsPresent(s.Arguments) && !isJSONObject(s.Arguments):
		return fmt.Errorf("has arguments that are not a JSON object: %s", termtext.Ellipsis(string(s.Arguments), 40))
	case IsPresent(s.Params) && !isJSONObject(s.Params) && !isJSONArray(s.Params):
		return fmt.Errorf("has params that are neither a JSON object nor an array: %s", termtext.Ellipsis(string(s.Params), 40))
	}
	return nil
}

// Name describes the step for messages: `tool "book_trip"` or `method "ping"`.
func (s Step) Name() string {
	if s.Tool != "" {
		return "tool " + termtext.Quote(s.Tool)
	}
	return "method " + termtext.Quote(s.Method)
}

// ToolArguments returns the tool's arguments, nil when there are none.
func (s Step) ToolArguments() json.RawMessage {
	if !IsPresent(s.Arguments) {
		return nil
	}
	return s.Arguments
}

// ToolsCallParams builds the params of tools/call for a tool step.
func (s Step) ToolsCallParams() (json.RawMessage, error) {
	p := struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments,omitempty"`
	}{s.Tool, s.ToolArguments()}
	return json.Marshal(p)
}

// IsPresent reports whether raw holds a value other than null.
func IsPresent(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

// isJSONObject reports whether raw is a JSON object.
func isJSONObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}

// isJSONArray reports whether raw is a JSON array.
func isJSONArray(raw json.RawMessage) bool {
	var a []json.RawMessage
	return json.Unmarshal(raw, &a) == nil && a != nil
}
