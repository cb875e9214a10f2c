package tasks

import (
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// RequestTTL is the ttl a v1 task request asks for, in milliseconds (the
// server may keep it or choose its own).
const RequestTTL = 60000

// ServerTakesV1 reports whether a legacy server's capabilities declare v1
// task execution of tools/call (tasks.requests.tools.call).
func ServerTakesV1(caps json.RawMessage) bool {
	var c struct {
		Tasks struct {
			Requests struct {
				Tools struct {
					Call json.RawMessage `json:"call"`
				} `json:"tools"`
			} `json:"requests"`
		} `json:"tasks"`
	}
	return json.Unmarshal(caps, &c) == nil && len(c.Tasks.Requests.Tools.Call) > 0 && string(c.Tasks.Requests.Tools.Call) != "null"
}

// WantsV1 reports whether mcpscope asks a v1 server to run a tool whose
// execution.taskSupport is support as a task: only when the tool requires
// it. An optional tool runs as a plain call, its result in the answer.
func WantsV1(support string) bool { return support == mcp.TaskSupportRequired }

// WithV1Request returns the params of a tools/call with the v1 `task`
// member set; params must be a JSON object (or empty).
func WithV1Request(params json.RawMessage) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if len(params) > 0 {
		if err := json.Unmarshal(params, &m); err != nil {
			return nil, fmt.Errorf("tools/call params are not a JSON object: %w", err)
		}
	}
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	if _, set := m["task"]; set {
		return params, nil // the caller's own
	}
	m["task"], _ = json.Marshal(mcp.TaskRequest{TTL: RequestTTL})
	return json.Marshal(m)
}

// StatusLine is one sanitized line of a task's status:
// "task ID STATUS: MESSAGE".
func StatusLine(t mcp.Task) string {
	s := "task " + termtext.LineMax(t.TaskID, 80) + " " + termtext.LineMax(string(t.Status), 40)
	if t.StatusMessage != "" {
		s += ": " + termtext.Line(t.StatusMessage)
	}
	return s
}
