package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// The Tasks extension in its two wire generations: v2 (SEP-2663, the
// 2026-07-28 extension io.modelcontextprotocol/tasks: a tools/call result
// with resultType "task", tasks/get inlining the result, tasks/update
// answering input requests) and v1 (2025-11-25 capabilities.tasks: a
// `task` param, a {task:{…}} handle, tasks/result).
const (
	ExtensionTasks = "io.modelcontextprotocol/tasks"
	ResultTypeTask = "task"

	MethodTasksGet    = "tasks/get"
	MethodTasksUpdate = "tasks/update"
	MethodTasksCancel = "tasks/cancel"
	MethodTasksResult = "tasks/result" // v1 only
	MethodTasksList   = "tasks/list"   // v1 only

	MethodNotifyTasks      = "notifications/tasks"        // v2
	MethodNotifyTaskStatus = "notifications/tasks/status" // v1

	// MetaRelatedTask names, in a v1 message's _meta, the task it belongs to.
	MetaRelatedTask = "io.modelcontextprotocol/related-task"
)

// TaskStatus is the state of a task.
type TaskStatus string

// The statuses of a task; the last three are terminal.
const (
	TaskWorking       TaskStatus = "working"
	TaskInputRequired TaskStatus = "input_required"
	TaskCompleted     TaskStatus = "completed"
	TaskFailed        TaskStatus = "failed"
	TaskCancelled     TaskStatus = "cancelled"
)

// Known reports whether s is a status the extension defines.
func (s TaskStatus) Known() bool {
	switch s {
	case TaskWorking, TaskInputRequired, TaskCompleted, TaskFailed, TaskCancelled:
		return true
	}
	return false
}

// Terminal reports whether a task in status s is over.
func (s TaskStatus) Terminal() bool {
	return s == TaskCompleted || s == TaskFailed || s == TaskCancelled
}

// TaskGeneration says which wire generation of the Tasks extension a
// message speaks.
type TaskGeneration int

// The generations; TasksNone is a result that is no task handle.
const (
	TasksNone TaskGeneration = iota
	TasksV1
	TasksV2
)

// Task is one snapshot of a task: the handle a tools/call answers with, a
// tasks/get result or the params of a status notification, in either
// generation (v1 names its numbers ttl and pollInterval, v2 ttlMs and
// pollIntervalMs). Numbers are Millis, so that a lying value is bounded by
// Interval rather than refused.
type Task struct {
	TaskID         string     `json:"taskId"`
	Status         TaskStatus `json:"status"`
	StatusMessage  string     `json:"statusMessage,omitempty"`
	CreatedAt      string     `json:"createdAt,omitempty"`
	LastUpdatedAt  string     `json:"lastUpdatedAt,omitempty"`
	TTLMs          *Millis    `json:"ttlMs,omitempty"`
	PollIntervalMs *Millis    `json:"pollIntervalMs,omitempty"`
	TTL            *Millis    `json:"ttl,omitempty"`
	PollInterval   *Millis    `json:"pollInterval,omitempty"`

	// v2 tasks/get inlines the outcome: the CallToolResult of a completed
	// task, the error of a failed one, the questions of input_required.
	Result        json.RawMessage         `json:"result,omitempty"`
	Error         *jsonrpc.Error          `json:"error,omitempty"`
	InputRequests map[string]InputRequest `json:"inputRequests,omitempty"`
}

// Millis is a task's number of milliseconds (ttl, poll interval), read
// leniently: a number is taken as it is, any other JSON value (a string,
// an object) is NaN, which Interval takes as no hint, so that a task is
// not lost to a malformed hint.
type Millis float64

// UnmarshalJSON reads a number, or NaN for any other value.
func (m *Millis) UnmarshalJSON(b []byte) error {
	var f float64
	if json.Unmarshal(b, &f) != nil {
		f = math.NaN()
	}
	*m = Millis(f)
	return nil
}

// MarshalJSON writes the number, or null when it is not finite.
func (m Millis) MarshalJSON() ([]byte, error) {
	f := float64(m)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

// Poll interval bounds: the extension's floor, the default when the server
// gives none, and mcpscope's own ceiling on a server's hint.
const (
	MinPollInterval     = 10 * time.Millisecond
	DefaultPollInterval = time.Second
	MaxPollInterval     = 30 * time.Second
)

// Interval is the poll interval the task asks for, bounded: no hint, or a
// negative or non-finite one, is DefaultPollInterval; a hint is at least
// MinPollInterval and at most MaxPollInterval.
func (t *Task) Interval() time.Duration {
	ms := t.PollIntervalMs
	if ms == nil {
		ms = t.PollInterval
	}
	if ms == nil || *ms < 0 || math.IsNaN(float64(*ms)) || math.IsInf(float64(*ms), 0) {
		return DefaultPollInterval
	}
	if *ms >= Millis(MaxPollInterval/time.Millisecond) {
		return MaxPollInterval
	}
	return max(MinPollInterval, time.Duration(float64(*ms)*float64(time.Millisecond)))
}

// DecodeTask reads a task snapshot: a v2 handle or tasks/get result, a v1
// tasks/get result, or a status notification's params. A snapshot without
// taskId or status is an error.
func DecodeTask(raw json.RawMessage) (Task, error) {
	var t Task
	if err := json.Unmarshal(raw, &t); err != nil {
		return Task{}, fmt.Errorf("not a task: %w", err)
	}
	if t.TaskID == "" {
		return Task{}, errors.New("the task names no taskId")
	}
	if t.Status == "" {
		return Task{}, fmt.Errorf("task %s has no status", t.TaskID)
	}
	for k, ir := range t.InputRequests {
		if ir.Method == "" {
			return Task{}, fmt.Errorf("input request %q of task %s names no method", k, t.TaskID)
		}
	}
	return t, nil
}

// DecodeTaskHandle reads a tools/call result: a v2 handle (resultType
// "task", the task's members flat), a v1 handle ({"task":{…}} without
// the content of a CallToolResult), or neither (TasksNone, no error). A
// handle that does not decode is an error.
func DecodeTaskHandle(result json.RawMessage) (Task, TaskGeneration, error) {
	if !mayNameTask(result) {
		return Task{}, TasksNone, nil
	}
	return probeTaskHandle(result)
}

// probeTaskHandle is DecodeTaskHandle for a result that may name a task.
func probeTaskHandle(result json.RawMessage) (Task, TaskGeneration, error) {
	var probe struct {
		ResultType string          `json:"resultType"`
		Task       json.RawMessage `json:"task"`
		Content    json.RawMessage `json:"content"`
	}
	if json.Unmarshal(result, &probe) != nil {
		return Task{}, TasksNone, nil
	}
	switch {
	case probe.ResultType == ResultTypeTask:
		t, err := DecodeTask(result)
		return t, TasksV2, err
	case probe.ResultType == "" && len(probe.Task) > 0 && probe.Task[0] == '{' && len(probe.Content) == 0:
		t, err := DecodeTask(probe.Task)
		return t, TasksV1, err
	}
	return Task{}, TasksNone, nil
}

// mayNameTask reports whether result may hold a handle: either
// generation names "task" (a member's name, or resultType's value), a
// name encoding/json matches without regard to case, the Kelvin sign
// and the long s folding to k and s; \u escapes could spell it too. A
// result with none of these, as most results and most large ones of
// text, is not decoded.
func mayNameTask(result []byte) bool {
	if bytes.Contains(result, []byte(`\u`)) {
		return true
	}
	for i, c := range result {
		if c|0x20 != 't' || i+3 >= len(result) || result[i+1]|0x20 != 'a' {
			continue
		}
		rest := result[i+2:]
		switch {
		case rest[0]|0x20 == 's':
			rest = rest[1:]
		case bytes.HasPrefix(rest, []byte("\u017f")):
			rest = rest[len("\u017f"):]
		default:
			continue
		}
		if len(rest) > 0 && rest[0]|0x20 == 'k' || bytes.HasPrefix(rest, []byte("\u212a")) {
			return true
		}
	}
	return false
}

// IsTaskHandle reports whether a tools/call result is a task handle of
// either generation.
func IsTaskHandle(result json.RawMessage) bool {
	_, g, _ := DecodeTaskHandle(result)
	return g != TasksNone
}

// TaskParams are the params of tasks/get, tasks/cancel and tasks/result.
type TaskParams struct {
	TaskID string `json:"taskId"`
}

// TaskUpdateParams are the params of v2 tasks/update: the answers to an
// input_required task's inputRequests, under their keys.
type TaskUpdateParams struct {
	TaskID         string                     `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
}

// TaskRequest is the v1 `task` member of a tools/call's params that asks
// for task execution.
type TaskRequest struct {
	TTL int64 `json:"ttl,omitempty"`
}

// Task support values of a tool's execution.taskSupport (v1).
const (
	TaskSupportForbidden = "forbidden"
	TaskSupportOptional  = "optional"
	TaskSupportRequired  = "required"
)

// ToolTaskSupport is a tool's declared execution.taskSupport, or "" when
// it declares none.
func ToolTaskSupport(tool json.RawMessage) string {
	var t struct {
		Execution struct {
			TaskSupport string `json:"taskSupport"`
		} `json:"execution"`
	}
	_ = json.Unmarshal(tool, &t)
	return t.Execution.TaskSupport
}

// RelatedTaskID is the taskId a message's _meta names as its related task
// (v1), or "".
func RelatedTaskID(meta json.RawMessage) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(meta, &m) != nil {
		return ""
	}
	var rt TaskParams
	_ = json.Unmarshal(m[MetaRelatedTask], &rt)
	return rt.TaskID
}
