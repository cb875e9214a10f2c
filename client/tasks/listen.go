package tasks

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// listen opens, for a v2 task on a 2026-07-28 session, one
// subscriptions/listen whose filter asks for the task's pushed status
// (notifications.taskIds), and returns what closes it and waits for its
// end. The notifications/tasks it carries
// reach the follow as every status notification does (subscribe): shown
// at once, a completed one without its result fetched with tasks/get.
// Polling goes on beside it. A server that refuses the listen, or
// acknowledges it without the task's id, leaves the follow to polling,
// with a debug note and nothing else; the listen ends with ctx and never
// outlives the max time.
func (f *follower) listen(ctx context.Context) (closeListen func()) {
	limit := time.Duration(0)
	if f.o.MaxTime > 0 {
		if limit = time.Until(f.o.Started.Add(f.o.MaxTime)); limit <= 0 {
			return func() {}
		}
	}
	if f.gen != mcp.TasksV2 || f.s.Era() != client.EraModern {
		return func() {}
	}
	lctx, cancel := context.WithCancel(ctx)
	params := map[string]any{"notifications": map[string]any{"taskIds": []string{f.id}}}
	var listening sync.WaitGroup
	listening.Go(func() {
		_, err := f.s.Listen(lctx, params, func(ev client.ListenEvent) {
			if ev.Kind == client.ListenAcknowledged && !slices.Contains(acceptedTaskIDs(ev.Message.Params), f.id) {
				slog.Debug("the server does not push the task's status: it is polled", "task", f.id, "listen", ev.ID.String())
				cancel()
			}
		}, client.WithMaxTime(limit))
		if lctx.Err() == nil {
			slog.Debug("subscriptions/listen for the task ended: it is polled", "task", f.id, "err", err)
		}
	})
	return func() {
		cancel()
		listening.Wait()
	}
}

// acceptedTaskIDs are the task ids the params of a subscriptions/listen
// acknowledgement say the server accepted (notifications.taskIds); none
// when they are malformed.
func acceptedTaskIDs(params json.RawMessage) []string {
	var p struct {
		Notifications struct {
			TaskIDs []string `json:"taskIds"`
		} `json:"notifications"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil
	}
	return p.Notifications.TaskIDs
}
