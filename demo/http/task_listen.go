package demohttp

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// subscriptions/listen as the stateless 2026-07-28 flavour serves it: of
// the listen filter it honours notifications.taskIds alone (the Tasks
// extension's opt-in to pushed status), from a client that declares the
// extension. The stream opens with notifications/subscriptions/acknowledged
// naming the task ids accepted (those of tasks in the store), then carries
// a notifications/tasks for each accepted task as it is now and at each
// change of its status, each tagged with the subscription's id. It ends
// with its result once every accepted task has ended (at once when none
// was accepted, so that a listen which can carry nothing holds no slot),
// when the client closes it, or when Handler.Close ends it.

// maxListens bounds the subscriptions/listen streams a Handler holds open.
const maxListens = 64

// listens counts the open subscriptions/listen streams of a Handler, and
// tells them when it closes.
type listens struct {
	mu     sync.Mutex
	open   int
	closed chan struct{} // made on first use, closed by close
	ended  bool
}

// enter counts one more stream and returns the channel Close closes;
// false when maxListens are open already or the Handler is closed.
func (l *listens) enter() (<-chan struct{}, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open >= maxListens || l.ended {
		return nil, false
	}
	l.open++
	return l.doneLocked(), true
}

// leave counts one stream less.
func (l *listens) leave() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
}

// doneLocked is the channel close closes; l.mu is held.
func (l *listens) doneLocked() chan struct{} {
	if l.closed == nil {
		l.closed = make(chan struct{})
	}
	return l.closed
}

// close ends every stream, and refuses new ones.
func (l *listens) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.ended {
		l.ended = true
		close(l.doneLocked())
	}
}

// Listens returns how many subscriptions/listen streams are open.
func (h *Handler) Listens() int {
	h.listens.mu.Lock()
	defer h.listens.mu.Unlock()
	return h.listens.open
}

// listenFilter is the part of a subscriptions/listen request the demo
// reads.
type listenFilter struct {
	Notifications struct {
		TaskIDs []string `json:"taskIds"`
	} `json:"notifications"`
}

// serveListen answers a subscriptions/listen request with its stream.
func (h *Handler) serveListen(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
	var f listenFilter
	if err := json.Unmarshal(m.Params, &f); err != nil {
		writeError(w, http.StatusOK, m.ID, mcp.CodeInvalidParams, "subscriptions/listen: "+err.Error())
		return
	}
	if !accepts(r, mediaSSE) {
		writeError(w, http.StatusNotAcceptable, m.ID, mcp.CodeInvalidRequest, "subscriptions/listen answers with a stream: the Accept header must allow text/event-stream")
		return
	}
	closed, ok := h.listens.enter()
	if !ok {
		writeError(w, http.StatusServiceUnavailable, m.ID, mcp.CodeInternalError, "too many subscriptions/listen streams are open")
		return
	}
	defer h.listens.leave()
	accepted, watched := h.acceptTasks(f.Notifications.TaskIDs, declaresTasks(m.Params))
	meta := map[string]any{mcp.MetaSubscriptionID: m.ID}
	ack := map[string]any{"_meta": meta, "notifications": map[string]any{}}
	if f.Notifications.TaskIDs != nil {
		ack["notifications"] = map[string]any{"taskIds": accepted}
	}
	w.Header().Set("Content-Type", mediaSSE)
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	write := func(msg *jsonrpc.Message, err error) bool {
		if err != nil {
			return false
		}
		b, err := msg.EncodeJSON()
		if err != nil {
			return false
		}
		_ = rc.SetWriteDeadline(time.Now().Add(h.opts.WriteTimeout)) // a client that does not read
		if _, err := w.Write(sseEvent{data: b}.appendTo(nil)); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !write(jsonrpc.NewNotification(mcp.MethodNotifySubscriptionsAck, ack)) {
		return
	}
	end := func() {
		write(jsonrpc.NewResult(*m.ID, map[string]any{"resultType": mcp.ResultTypeComplete, "_meta": meta}))
	}
	if len(watched) == 0 {
		end()
		return
	}
	ctx, stop := context.WithCancel(r.Context())
	snaps := make(chan mcp.Task)
	var watching sync.WaitGroup
	defer watching.Wait()
	defer stop() // the watchers end before the wait
	for _, t := range watched {
		watching.Go(func() { pushTask(ctx, t, snaps) })
	}
	for running := len(watched); running > 0; {
		select {
		case snap := <-snaps:
			if !write(jsonrpc.NewNotification(mcp.MethodNotifyTasks, taskNotice{Task: snap, Meta: meta})) {
				return
			}
			if snap.Status.Terminal() {
				running-- // pushTask sends a task's end once, then returns
			}
		case <-closed:
			end()
			return
		case <-ctx.Done():
			return
		}
	}
	end()
}

// acceptTasks returns the ids of the tasks in the store among ids, once
// each and at most maxTasks, and the tasks: none for a client that does
// not declare the Tasks extension.
func (h *Handler) acceptTasks(ids []string, declared bool) ([]string, []*task) {
	accepted, watched := []string{}, []*task(nil)
	if !declared {
		return accepted, nil
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if len(accepted) == maxTasks {
			break
		}
		if t := h.tasks.get(id); t != nil && !seen[id] {
			seen[id] = true
			accepted, watched = append(accepted, id), append(watched, t)
		}
	}
	return accepted, watched
}

// taskNotice is the params of notifications/tasks: the task as tasks/get
// gives it, tagged with the subscription that carries it.
type taskNotice struct {
	mcp.Task
	Meta map[string]any `json:"_meta"`
}

// pushTask hands t to snaps as it is now and after each change, the
// newest state when several came meanwhile, until it ends or ctx does.
func pushTask(ctx context.Context, t *task, snaps chan<- mcp.Task) {
	for {
		snap, changed := t.watch()
		select {
		case snaps <- snap:
		case <-ctx.Done():
			return
		}
		if snap.Status.Terminal() {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		}
	}
}
