package explore

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/tasks"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// taskFollow is the task a tools/call of the explorer became, followed to
// its end by client/tasks while the waiting view shows its status.
type taskFollow struct {
	mu        sync.Mutex
	latest    mcp.Task
	seen      bool
	following bool
	cancel    context.CancelFunc
}

// status records a status change of the task.
func (f *taskFollow) status(t mcp.Task) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.latest, f.seen = t, true
}

// line is the task's latest status as one sanitized line, or "".
func (f *taskFollow) line() string {
	if f == nil {
		return ""
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.seen {
		return ""
	}
	return tasks.StatusLine(f.latest) + "…"
}

// active reports whether a task is being followed.
func (f *taskFollow) active() bool {
	if f == nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.following
}

// stop cancels a task being followed (the follow sends tasks/cancel) and
// reports whether there was one.
func (f *taskFollow) stop() bool {
	if f == nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.following {
		return false
	}
	f.cancel()
	return true
}

// follow follows res, the result of a tools/call sent at started, when
// it is a task handle, within the session's max time of started; a
// follow the user cancels ends as a cancelled call.
func (f *taskFollow) follow(ctx context.Context, s *client.Session, res json.RawMessage, sent *screen.SentID, started time.Time) (json.RawMessage, error) {
	if !mcp.IsTaskHandle(res) {
		return res, nil
	}
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	f.mu.Lock()
	f.following, f.cancel = true, cancel
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.following = false
		f.mu.Unlock()
	}()
	id, _ := sent.Get()
	out, err := tasks.Follow(fctx, s, res, tasks.Options{MaxTime: s.MaxTime(), Started: started, Call: id, OnStatus: f.status})
	if err != nil && fctx.Err() != nil && ctx.Err() == nil && !errors.As(err, new(*client.TimeoutError)) {
		return nil, &client.CancelledError{Method: mcp.MethodToolsCall, ID: id, Reason: screen.CancelReason + "; sent tasks/cancel", Err: context.Canceled}
	}
	return out, err
}

// taskParams adds the v1 `task` member to the params of a tools/call of
// e when the server declares v1 task execution and the tool requires it
// (tasks.WantsV1).
func taskParams(s *client.Session, e entry, params map[string]any) map[string]any {
	if s == nil || !tasks.ServerTakesV1(s.ServerCapabilities()) || !tasks.WantsV1(e.taskSupport) {
		return params
	}
	params["task"] = mcp.TaskRequest{TTL: tasks.RequestTTL}
	return params
}
