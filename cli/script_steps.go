package cli

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ScriptStep is one step of `mcpscope script`: a tool to run (interactively
// when the server supports it, else through tools/call) or any JSON-RPC
// method to call. Exactly one of Tool and Method is set.
type ScriptStep struct {
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

// validate checks that the step names one thing to do, with fitting
// arguments. Its errors read after "step N ".
func (s ScriptStep) validate() error {
	switch {
	case s.Tool == "" && s.Method == "":
		return errors.New("names neither a tool nor a method; give tool: NAME or method: METHOD")
	case s.Tool != "" && s.Method != "":
		return fmt.Errorf("names both the tool %q and the method %q; give one per step", s.Tool, s.Method)
	case s.Tool != "" && isPresent(s.Params):
		return fmt.Errorf("gives params to the tool %q; a tool takes arguments", s.Tool)
	case s.Method != "" && isPresent(s.Arguments):
		return fmt.Errorf("gives arguments to the method %q; a method takes params", s.Method)
	case isPresent(s.Arguments) && !isJSONObject(s.Arguments):
		return fmt.Errorf("has arguments that are not a JSON object: %s", shorten(string(s.Arguments), 40))
	case isPresent(s.Params) && !isJSONObject(s.Params) && !isJSONArray(s.Params):
		return fmt.Errorf("has params that are neither a JSON object nor an array: %s", shorten(string(s.Params), 40))
	}
	return nil
}

// name describes the step for messages: `tool "book_trip"` or `method "ping"`.
func (s ScriptStep) name() string {
	if s.Tool != "" {
		return "tool " + quote(s.Tool)
	}
	return "method " + quote(s.Method)
}

// arguments returns the tool's arguments, nil when there are none.
func (s ScriptStep) arguments() json.RawMessage {
	if !isPresent(s.Arguments) {
		return nil
	}
	return s.Arguments
}

// toolsCallParams builds the params of tools/call for a tool step.
func (s ScriptStep) toolsCallParams() (json.RawMessage, error) {
	p := struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments,omitempty"`
	}{s.Tool, s.arguments()}
	return json.Marshal(p)
}

// isPresent reports whether raw holds a value other than null.
func isPresent(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

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

// scriptSteps puts the steps of a run in order: the one the command line
// names with --tool (and --args) first, then the answers file's steps.
// args without a tool is a usage error, and so is a run with no step.
func scriptSteps(tool, args string, file []ScriptStep) ([]ScriptStep, error) {
	var steps []ScriptStep
	switch {
	case tool != "":
		st := ScriptStep{Tool: tool}
		if args != "" {
			var obj map[string]json.RawMessage
			if err := json.Unmarshal([]byte(args), &obj); err != nil || obj == nil {
				return nil, usagef("--args must be a JSON object, got %s", shorten(args, 40))
			}
			st.Arguments = json.RawMessage(args)
		}
		if err := st.validate(); err != nil {
			return nil, usagef("--tool %s %w", quote(tool), err)
		}
		steps = append(steps, st)
	case args != "":
		return nil, usagef("--args needs --tool NAME: the arguments are the tool's")
	}
	steps = append(steps, file...)
	if len(steps) == 0 {
		return nil, usagef("nothing to run: give --tool NAME, or a steps: list in the --answers file")
	}
	return steps, nil
}
