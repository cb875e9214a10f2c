package tasks_test

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/tasks"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// v2Handle is a v2 task handle of task id that asks to be polled every
// 10 ms.
func v2Handle(id string) json.RawMessage {
	return json.RawMessage(`{"resultType":"task","taskId":"` + id + `","status":"working","pollIntervalMs":10}`)
}

// follow connects a session to a TaskPeer with script and follows handle.
func follow(t *testing.T, opts client.Options, handle json.RawMessage, o tasks.Options,
	script func(m *jsonrpc.Message) (string, *jsonrpc.Error, bool)) (*screentest.TaskPeer, json.RawMessage, error) {
	t.Helper()
	p, s := screentest.ConnectTaskPeer(t, nil, opts, script)
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	res, err := tasks.Follow(ctx, s, handle, o)
	return p, res, err
}

// A follow that ends on an error of its own (here a refused tasks/update)
// while the task still runs gives the task up with tasks/cancel.
func TestFollowRefusedUpdateCancels(t *testing.T) {
	t.Parallel()
	p, _, err := follow(t, client.Options{Roots: []mcp.Root{{URI: "file:///tmp"}}}, v2Handle("T1"), tasks.Options{},
		func(m *jsonrpc.Message) (string, *jsonrpc.Error, bool) {
			switch m.Method {
			case mcp.MethodTasksGet:
				return `{"resultType":"complete","taskId":"T1","status":"input_required",` +
					`"inputRequests":{"r":{"method":"roots/list","params":{}}}}`, nil, true
			case mcp.MethodTasksUpdate:
				return "", &jsonrpc.Error{Code: mcp.CodeInternalError, Message: "no updates today"}, true
			}
			return `{}`, nil, true
		})
	if err == nil || !strings.Contains(err.Error(), "no updates today") {
		t.Fatalf("%v", err)
	}
	if n := len(p.Sent(mcp.MethodTasksCancel)); n != 1 {
		t.Fatalf("tasks/cancel sent %d times, want 1", n)
	}
}

// A v2 task that asks a second round of questions under the same status
// message gets both rounds answered, each once, and ends; a server that
// keeps asking is refused after client.MaxInputRounds rounds.
func TestFollowInputRounds(t *testing.T) {
	t.Parallel()
	var updates atomic.Int32
	script := func(rounds int32) func(m *jsonrpc.Message) (string, *jsonrpc.Error, bool) {
		return func(m *jsonrpc.Message) (string, *jsonrpc.Error, bool) {
			switch m.Method {
			case mcp.MethodTasksUpdate:
				updates.Add(1)
				return `{"resultType":"complete"}`, nil, true
			case mcp.MethodTasksGet:
				n := updates.Load()
				if n >= rounds {
					return `{"taskId":"T2","status":"completed","result":{"content":[]}}`, nil, true
				}
				return `{"taskId":"T2","status":"input_required","statusMessage":"Questions",` +
					`"inputRequests":{"q` + string(rune('a'+n%26)) + `":{"method":"roots/list"}}}`, nil, true
			}
			return `{}`, nil, true
		}
	}
	opts := client.Options{Roots: []mcp.Root{{URI: "file:///tmp"}}}
	_, res, err := follow(t, opts, v2Handle("T2"), tasks.Options{}, script(2))
	if err != nil || string(res) != `{"content":[]}` || updates.Load() != 2 {
		t.Fatalf("%s %v after %d tasks/update", res, err, updates.Load())
	}
	updates.Store(0)
	_, _, err = follow(t, opts, v2Handle("T2"), tasks.Options{}, script(1000))
	var pe *client.ProtocolError
	if !errors.As(err, &pe) || updates.Load() != client.MaxInputRounds {
		t.Fatalf("%v after %d tasks/update", err, updates.Load())
	}
}

// A v1 task whose tasks/get says it completed while its tasks/result
// never answers ends with a protocol error, not at the limits (here
// none), and the follow stops polling.
func TestFollowV1ResultNeverAnswered(t *testing.T) {
	t.Parallel()
	handle := json.RawMessage(`{"task":{"taskId":"T3","status":"working","pollInterval":10}}`)
	p, _, err := follow(t, client.Options{}, handle, tasks.Options{}, func(m *jsonrpc.Message) (string, *jsonrpc.Error, bool) {
		switch m.Method {
		case mcp.MethodTasksResult:
			return "", nil, false
		case mcp.MethodTasksGet:
			return `{"taskId":"T3","status":"completed"}`, nil, true
		}
		return `{}`, nil, true
	})
	var pe *client.ProtocolError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "tasks/result") {
		t.Fatalf("%v", err)
	}
	if n := len(p.Sent(mcp.MethodTasksGet)); n > 3 {
		t.Errorf("tasks/get sent %d times after the task ended", n)
	}
}

// A v1 tasks/result that answers before any poll sees the task end
// still reports the task's last status, completed for a result and
// failed for an error answer, so a follow never ends on "working".
func TestFollowV1ResultBeforePollReportsEnd(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		rpcErr *jsonrpc.Error
		want   mcp.TaskStatus
	}{
		{"result", nil, mcp.TaskCompleted},
		{"error", &jsonrpc.Error{Code: mcp.CodeInternalError, Message: "broke"}, mcp.TaskFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var seen []mcp.TaskStatus
			handle := json.RawMessage(`{"task":{"taskId":"T8","status":"working","pollInterval":30000}}`)
			_, _, err := follow(t, client.Options{}, handle, tasks.Options{OnStatus: func(t mcp.Task) { seen = append(seen, t.Status) }},
				func(m *jsonrpc.Message) (string, *jsonrpc.Error, bool) {
					if m.Method == mcp.MethodTasksResult {
						return `{"content":[]}`, tc.rpcErr, true
					}
					return `{"taskId":"T8","status":"working"}`, nil, true
				})
			if (err != nil) != (tc.rpcErr != nil) {
				t.Fatalf("%v", err)
			}
			if len(seen) != 2 || seen[0] != mcp.TaskWorking || seen[1] != tc.want {
				t.Fatalf("statuses %v, want [working %s]", seen, tc.want)
			}
		})
	}
}

// A v2 status notification that says completed without the result makes
// the follow fetch it with tasks/get at once, not at the next poll (30 s).
func TestFollowV2CompletedNotification(t *testing.T) {
	t.Parallel()
	handle := json.RawMessage(`{"resultType":"task","taskId":"T4","status":"working","pollIntervalMs":30000}`)
	p, s := screentest.ConnectTaskPeer(t, nil, client.Options{}, func(m *jsonrpc.Message) (string, *jsonrpc.Error, bool) {
		return `{"taskId":"T4","status":"completed","result":{"content":[{"type":"text","text":"done"}]}}`, nil, true
	})
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	res, err := tasks.Follow(ctx, s, handle, tasks.Options{OnStatus: func(task mcp.Task) {
		if task.Status == mcp.TaskWorking { // the handle: the follow listens now
			go p.Deliver(&jsonrpc.Message{JSONRPC: jsonrpc.Version, Method: mcp.MethodNotifyTasks,
				Params: json.RawMessage(`{"taskId":"T4","status":"completed"}`)})
		}
	}})
	if err != nil || !strings.Contains(string(res), "done") {
		t.Fatalf("%s %v", res, err)
	}
}

// A progress notification of the call a task answers (its progressToken
// is the call's id) is a sign of life: a task whose snapshots never change
// but whose progress goes on is followed past --timeout to its end.
func TestFollowProgressIsLife(t *testing.T) {
	t.Parallel()
	call := jsonrpc.IntID(77)
	var p *screentest.TaskPeer
	var gets atomic.Int32
	p, s := screentest.ConnectTaskPeer(t, nil, client.Options{}, func(m *jsonrpc.Message) (string, *jsonrpc.Error, bool) {
		n := gets.Add(1)
		if n >= 150 {
			return `{"taskId":"T5","status":"completed","result":{"content":[]}}`, nil, true
		}
		p.Deliver(&jsonrpc.Message{JSONRPC: jsonrpc.Version, Method: mcp.MethodNotifyProgress,
			Params: json.RawMessage(`{"progressToken":77,"progress":` + string(rune('0'+n%10)) + `}`)})
		return `{"taskId":"T5","status":"working"}`, nil, true
	})
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	res, err := tasks.Follow(ctx, s, v2Handle("T5"), tasks.Options{Timeout: time.Second, Call: call})
	if err != nil || string(res) != `{"content":[]}` {
		t.Fatalf("%s %v after %d polls", res, err, gets.Load())
	}
}

// A round of more input requests than MaxTaskInputs is refused unasked,
// and a request of a kind the client does not know fails the follow
// naming it; either way the task is cancelled.
func TestFollowInputFlood(t *testing.T) {
	t.Parallel()
	var many strings.Builder
	for i := range 1000 {
		if i > 0 {
			many.WriteByte(',')
		}
		many.WriteString(`"k` + strconv.Itoa(i) + `":{"method":"roots/list"}`)
	}
	for _, tc := range []struct{ inputs, want string }{
		{many.String(), "1000 input requests"},
		{`"x":{"method":"weather/forecast"}`, `"weather/forecast"`},
	} {
		var answered atomic.Int32
		p, _, err := follow(t, client.Options{Roots: []mcp.Root{{URI: "file:///tmp"}}}, v2Handle("T6"), tasks.Options{},
			func(m *jsonrpc.Message) (string, *jsonrpc.Error, bool) {
				if m.Method == mcp.MethodTasksUpdate {
					answered.Add(1)
				}
				return `{"taskId":"T6","status":"input_required","inputRequests":{` + tc.inputs + `}}`, nil, true
			})
		if err == nil || !strings.Contains(err.Error(), tc.want) || answered.Load() != 0 || len(p.Sent(mcp.MethodTasksCancel)) != 1 {
			t.Errorf("%s: %v, %d tasks/update, %d tasks/cancel", tc.want, err, answered.Load(), len(p.Sent(mcp.MethodTasksCancel)))
		}
	}
}

// A v1 follow its caller stops (ctrl+x in the TUI, Ctrl-C headless)
// cancels the task with tasks/cancel and its open tasks/result with
// notifications/cancelled.
func TestFollowV1Stopped(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	stop, stopNow := context.WithCancel(ctx)
	p, s := screentest.ConnectTaskPeer(t, nil, client.Options{}, func(m *jsonrpc.Message) (string, *jsonrpc.Error, bool) {
		if m.Method == mcp.MethodTasksResult {
			stopNow() // the user stops the follow while tasks/result waits
			return "", nil, false
		}
		return `{"taskId":"T7","status":"working"}`, nil, true
	})
	_, err := tasks.Follow(stop, s, json.RawMessage(`{"task":{"taskId":"T7","status":"working","pollInterval":10}}`), tasks.Options{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("%v", err)
	}
	results := p.Sent(mcp.MethodTasksResult)
	if len(p.Sent(mcp.MethodTasksCancel)) != 1 || len(results) != 1 {
		t.Fatalf("%d tasks/cancel, %d tasks/result", len(p.Sent(mcp.MethodTasksCancel)), len(results))
	}
	cancelled := p.Sent(mcp.MethodNotifyCancelled)
	if len(cancelled) != 1 || !strings.Contains(string(cancelled[0].Params), `"requestId":`+results[0].ID.String()) {
		t.Fatalf("notifications/cancelled: %v", cancelled)
	}
}
