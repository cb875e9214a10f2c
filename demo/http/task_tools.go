package demohttp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Names of the task tools, after the conformance fixtures of SEP-2663
// where there is one (greet is the fixtures' sync-only tool): a client
// that declares the Tasks extension gets a task of each other one; any
// other client gets the plain answer (task_misbehave: -32021).
const (
	ToolGreet            = "greet"              // sync only: Hello, {name}!
	ToolAskName          = "ask_name"           // working → input_required (the name, unless given) → completed
	ToolSlowCompute      = "slow_compute"       // working for `seconds` (default 1, at most 60), cancellable; polled at `pollIntervalMs`
	ToolFailingJob       = "failing_job"        // working → completed with a tool error (isError)
	ToolProtocolErrorJob = "protocol_error_job" // working → failed with a protocol error
	ToolTaskMisbehave    = "task_misbehave"     // a task that lies, by mode
)

// taskTools are the task tools by name: the work of each.
var taskTools = map[string]taskRun{
	ToolAskName:          askNameTask,
	ToolSlowCompute:      slowComputeTask,
	ToolFailingJob:       failingJobTask,
	ToolProtocolErrorJob: protocolErrorTask,
	ToolTaskMisbehave:    misbehaveTask,
}

// taskToolDefs are the task tools as tools/list lists them, with the
// plain answers of a client that declares no Tasks extension.
func taskToolDefs() []demo.Tool {
	return []demo.Tool{
		{Name: ToolGreet, Description: "Greet someone (never a task)",
			InputSchema: schemaJSON(map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}),
			Handler: func(_ context.Context, c *demo.Call) (*demo.ToolResult, error) {
				return demo.TextResult(greeting(nameArg(c.Args))), nil
			}},
		{Name: ToolAskName, Description: "Greet someone, as a task: asks for the name (elicitation) when none is given",
			InputSchema: schemaJSON(map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}),
			Handler: func(_ context.Context, c *demo.Call) (*demo.ToolResult, error) {
				return demo.TextResult(greeting(nameArg(c.Args))), nil
			}},
		{Name: ToolSlowCompute, Description: "Compute for a while, as a task that can be cancelled",
			InputSchema: schemaJSON(map[string]any{"type": "object", "properties": map[string]any{
				"seconds": map[string]any{"type": "number", "minimum": 0, "maximum": 60, "default": 1},
				"pollIntervalMs": map[string]any{"type": "number", "minimum": 10, "maximum": 60000, "default": 50,
					"description": "as a task: the poll interval the task asks for"}}}),
			Handler: func(ctx context.Context, c *demo.Call) (*demo.ToolResult, error) {
				res, rerr := slowComputeTask(ctx, c.Args, nil)
				if rerr != nil {
					return nil, rerr
				}
				return res.(*demo.ToolResult), nil
			}},
		{Name: ToolFailingJob, Description: "A job whose tool always reports an error (isError; as a task: completed)",
			InputSchema: schemaJSON(map[string]any{"type": "object"}),
			Handler: func(context.Context, *demo.Call) (*demo.ToolResult, error) {
				return failedJob(), nil
			}},
		{Name: ToolProtocolErrorJob, Description: "A job that ends in a protocol error (as a task: status failed)",
			InputSchema: schemaJSON(map[string]any{"type": "object"}),
			Handler: func(context.Context, *demo.Call) (*demo.ToolResult, error) {
				return nil, errProtocolJob
			}},
		{Name: ToolTaskMisbehave, Description: "A task that breaks the Tasks extension, by mode: stuck (never ends), " +
			"unknown_status, poll_negative (pollIntervalMs -500), poll_huge (pollIntervalMs 1e15, never ends)",
			InputSchema: schemaJSON(map[string]any{"type": "object", "properties": map[string]any{
				"mode": map[string]any{"type": "string", "enum": []string{"stuck", "unknown_status", "poll_negative", "poll_huge"}}}, "required": []string{"mode"}}),
			Handler: func(context.Context, *demo.Call) (*demo.ToolResult, error) {
				return nil, &jsonrpc.Error{Code: mcp.CodeMissingClientCapability, Message: "task_misbehave runs only as a task: declare the " + mcp.ExtensionTasks + " extension"}
			}},
	}
}

var errProtocolJob = &jsonrpc.Error{Code: mcp.CodeInternalError, Message: "the job broke: protocol_error_job always does"}

// failedJob is failing_job's tool error.
func failedJob() *demo.ToolResult {
	return &demo.ToolResult{Content: []any{demo.Text("the job failed: failing_job always fails")}, IsError: true}
}

func nameArg(args json.RawMessage) string {
	var a struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(args, &a)
	return a.Name
}

func greeting(name string) string {
	if name == "" {
		name = "stranger"
	}
	return "Hello, " + name + "!"
}

// askNameTask asks for the name through an input request when the call
// gives none, then greets.
func askNameTask(ctx context.Context, args json.RawMessage, t *task) (any, *jsonrpc.Error) {
	name := nameArg(args)
	t.set(mcp.TaskWorking, "Preparing the greeting")
	if name == "" {
		ask := map[string]mcp.InputRequest{"name": {Method: mcp.MethodElicitationCreate, Params: json.RawMessage(
			`{"mode":"form","message":"Whom should I greet?","requestedSchema":{"type":"object","properties":{"name":{"type":"string","title":"Name"}},"required":["name"]}}`)}}
		answers, ok := t.ask(ctx, "Waiting for the name", ask)
		if !ok {
			return nil, nil
		}
		var r struct {
			Action  string `json:"action"`
			Content struct {
				Name string `json:"name"`
			} `json:"content"`
		}
		if json.Unmarshal(answers["name"], &r) != nil || r.Action != "accept" {
			return demo.TextResult("No name given: " + greeting("")), nil
		}
		name = r.Content.Name
	}
	return demo.TextResult(greeting(name)), nil
}

// slowComputeTask works for the seconds asked, a status message each
// 100 ms; t is nil when it runs as a plain call.
func slowComputeTask(ctx context.Context, args json.RawMessage, t *task) (any, *jsonrpc.Error) {
	a := struct {
		Seconds float64 `json:"seconds"`
	}{Seconds: 1}
	if len(args) > 0 && json.Unmarshal(args, &a) != nil || a.Seconds < 0 || a.Seconds > 60 {
		return nil, &jsonrpc.Error{Code: mcp.CodeInvalidParams, Message: "seconds must be a number from 0 to 60"}
	}
	end := time.Now().Add(time.Duration(a.Seconds * float64(time.Second)))
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for time.Now().Before(end) {
		if t != nil {
			t.set(mcp.TaskWorking, fmt.Sprintf("Computing, %.1f s left", time.Until(end).Seconds()))
		}
		select {
		case <-ctx.Done():
			return nil, nil
		case <-tick.C:
		}
	}
	return demo.TextResult(fmt.Sprintf("Computed for %g s", a.Seconds)), nil
}

// failingJobTask works a moment, then reports a tool error.
func failingJobTask(ctx context.Context, _ json.RawMessage, t *task) (any, *jsonrpc.Error) {
	if !pause(ctx, t, "Running the job") {
		return nil, nil
	}
	return failedJob(), nil
}

// protocolErrorTask works a moment, then fails with a protocol error.
func protocolErrorTask(ctx context.Context, _ json.RawMessage, t *task) (any, *jsonrpc.Error) {
	if !pause(ctx, t, "Running the job") {
		return nil, nil
	}
	return nil, errProtocolJob
}

// pause shows msg for a moment; false when the task was cancelled.
func pause(ctx context.Context, t *task, msg string) bool {
	t.set(mcp.TaskWorking, msg)
	select {
	case <-ctx.Done():
		return false
	case <-time.After(4 * taskPoll):
		return true
	}
}

// misbehaveTask breaks the extension the way its mode says.
func misbehaveTask(ctx context.Context, args json.RawMessage, t *task) (any, *jsonrpc.Error) {
	var a struct {
		Mode string `json:"mode"`
	}
	_ = json.Unmarshal(args, &a)
	poll := func(ms float64) {
		t.mu.Lock()
		t.snap.PollIntervalMs = (*mcp.Millis)(&ms)
		t.mu.Unlock()
	}
	switch a.Mode {
	case "unknown_status":
		t.set("paused", "Taking a break")
		return nil, nil
	case "poll_negative":
		poll(-500)
		t.set(mcp.TaskWorking, "Polled at a negative interval")
		select {
		case <-ctx.Done():
		case <-time.After(300 * time.Millisecond):
		}
		return demo.TextResult("done despite a negative pollIntervalMs"), nil
	case "poll_huge":
		poll(1e15)
	}
	t.set(mcp.TaskWorking, "Still working")
	<-ctx.Done() // stuck: never ends before the task's time to live
	return nil, nil
}
