package tasks_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/tasks"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// call sends a tools/call to the HTTP demo (2026-07-28) and follows its
// task, returning the statuses seen.
func call(t *testing.T, tool string, args any, o tasks.Options) (json.RawMessage, []mcp.TaskStatus, error) {
	t.Helper()
	return callCapturing(t, nil, tool, args, o)
}

// callCapturing is call with the session's frames captured in sink.
func callCapturing(t *testing.T, sink capture.Sink, tool string, args any, o tasks.Options) (json.RawMessage, []mcp.TaskStatus, error) {
	t.Helper()
	s := screentest.ConnectDemoHTTP(t, sink)
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	handle, err := s.Call(ctx, mcp.MethodToolsCall, map[string]any{"name": tool, "arguments": args})
	if err != nil {
		t.Fatal(err)
	}
	if !mcp.IsTaskHandle(handle) {
		t.Fatalf("%s answered with no task handle: %s", tool, handle)
	}
	var mu sync.Mutex
	var seen []mcp.TaskStatus
	o.OnStatus = func(task mcp.Task) {
		mu.Lock()
		seen = append(seen, task.Status)
		mu.Unlock()
	}
	res, err := tasks.Follow(ctx, s, handle, o)
	mu.Lock()
	defer mu.Unlock()
	return res, seen, err
}

func TestFollowCompleted(t *testing.T) {
	t.Parallel()
	res, seen, err := call(t, "slow_compute", map[string]any{"seconds": 0.2}, tasks.Options{})
	if err != nil || !strings.Contains(string(res), "Computed for 0.2 s") {
		t.Fatalf("%s %v", res, err)
	}
	if seen[0] != mcp.TaskWorking || seen[len(seen)-1] != mcp.TaskCompleted {
		t.Fatalf("statuses %v", seen)
	}
}

func TestFollowFailed(t *testing.T) {
	t.Parallel()
	res, _, err := call(t, "failing_job", nil, tasks.Options{})
	if err != nil || !strings.Contains(string(res), `"isError":true`) {
		t.Fatalf("a tool error: %s %v", res, err)
	}
	_, _, err = call(t, "protocol_error_job", nil, tasks.Options{})
	var te *tasks.TaskError
	var rpc *client.RPCError
	if !errors.As(err, &te) || te.Status != mcp.TaskFailed || !errors.As(err, &rpc) || rpc.Err.Code != mcp.CodeInternalError {
		t.Fatalf("%v", err)
	}
}

// A task without a Handler to answer its input request fails naming the
// input, and is cancelled.
func TestFollowUnansweredInput(t *testing.T) {
	t.Parallel()
	_, _, err := call(t, "ask_name", nil, tasks.Options{})
	if err == nil || !strings.Contains(err.Error(), `needs input "name"`) {
		t.Fatalf("%v", err)
	}
}

func TestFollowIdleAndMaxTime(t *testing.T) {
	t.Parallel()
	for _, o := range []tasks.Options{{Timeout: 200 * time.Millisecond}, {MaxTime: 300 * time.Millisecond}} {
		_, _, err := call(t, "task_misbehave", map[string]any{"mode": "stuck"}, o)
		var te *client.TimeoutError
		if !errors.As(err, &te) || te.MaxTime != (o.MaxTime > 0) || !strings.Contains(te.Then, "sent tasks/cancel") {
			t.Fatalf("%+v: %v", o, err)
		}
	}
}

func TestFollowUnknownStatus(t *testing.T) {
	t.Parallel()
	_, _, err := call(t, "task_misbehave", map[string]any{"mode": "unknown_status"}, tasks.Options{})
	var pe *client.ProtocolError
	if !errors.As(err, &pe) {
		t.Fatalf("%v", err)
	}
}

func TestFollowNoHandle(t *testing.T) {
	res, err := tasks.Follow(context.Background(), nil, json.RawMessage(`{"content":[]}`), tasks.Options{})
	if err != nil || string(res) != `{"content":[]}` {
		t.Fatalf("%s %v", res, err)
	}
}
