package client

import (
	"context"
	"encoding/json"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Bounds of the notifications waiting for the subscribers; past either,
// new ones are dropped and counted.
const (
	maxQueuedNotifications = 8192
	// maxQueuedNotificationBytes bounds their bodies: 8192 notifications at
	// the largest frame would otherwise hold gigabytes. One is always let
	// in when none waits.
	maxQueuedNotificationBytes = 64 << 20
)

// noteItem is one notification with the progress callback it is routed to.
type noteItem struct {
	msg        *jsonrpc.Message
	onProgress func(mcp.ProgressNotificationParams)
	progress   mcp.ProgressNotificationParams
	listener   *listener // the subscription it is tagged for (listen.go)
}

// size is what the item holds of the server's bytes.
func (it noteItem) size() int { return max(len(it.msg.Raw), len(it.msg.Params)) }

// notificationQueue hands notifications from the transport's reader to the
// subscribers without blocking the reader. One goroutine at a time drains
// it, so notifications reach every subscriber in arrival order.
type notificationQueue struct {
	mu       sync.Mutex
	items    []noteItem
	bytes    int // the sum of the items' sizes
	draining bool
	stopped  bool
	dispatch func(noteItem)
	dropped  *atomic.Uint64
	pushed   uint64        // notifications ever queued
	handled  uint64        // notifications ever dispatched
	progress chan struct{} // closed and replaced each time one is handled
}

func newNotificationQueue(dispatch func(noteItem), dropped *atomic.Uint64) *notificationQueue {
	return &notificationQueue{dispatch: dispatch, dropped: dropped, progress: make(chan struct{})}
}

// queued returns how many notifications were ever queued.
func (q *notificationQueue) queued() uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.pushed
}

// waitHandled blocks until the first n queued notifications were dispatched,
// the queue stopped, or ctx ended.
func (q *notificationQueue) waitHandled(ctx context.Context, n uint64) {
	for {
		q.mu.Lock()
		done, tick := q.handled >= n || q.stopped && !q.draining, q.progress
		q.mu.Unlock()
		if done {
			return
		}
		select {
		case <-tick:
		case <-ctx.Done():
			return
		}
	}
}

// push queues one notification and makes sure a drainer runs.
func (q *notificationQueue) push(it noteItem) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.stopped {
		return
	}
	size := it.size()
	if len(q.items) >= maxQueuedNotifications || len(q.items) > 0 && q.bytes+size > maxQueuedNotificationBytes {
		q.dropped.Add(1)
		return
	}
	q.items = append(q.items, it)
	q.bytes += size
	q.pushed++
	if !q.draining {
		q.draining = true
		go q.drain()
	}
}

func (q *notificationQueue) drain() {
	for {
		q.mu.Lock()
		if len(q.items) == 0 {
			q.items = nil
			q.draining = false
			close(q.progress)
			q.progress = make(chan struct{})
			q.mu.Unlock()
			return
		}
		it := q.items[0]
		q.items[0] = noteItem{}
		q.items = q.items[1:]
		q.bytes -= it.size()
		q.mu.Unlock()
		q.dispatch(it)
		q.mu.Lock()
		q.handled++
		close(q.progress)
		q.progress = make(chan struct{})
		q.mu.Unlock()
	}
}

// stop refuses further notifications; those queued are still delivered.
func (q *notificationQueue) stop() {
	q.mu.Lock()
	q.stopped = true
	q.mu.Unlock()
}

// deliverNotification routes one notification from the server.
func (s *Session) deliverNotification(m *jsonrpc.Message) {
	it := noteItem{msg: m}
	switch m.Method {
	case mcp.MethodNotifyProgress:
		var p mcp.ProgressNotificationParams
		if json.Unmarshal(m.Params, &p) == nil {
			if w := s.progressWaiter(p.ProgressToken); w != nil {
				it.onProgress, it.progress = w.onProgress, p
			}
		}
	case mcp.MethodNotifyCancelled:
		var p mcp.CancelledNotificationParams
		if json.Unmarshal(m.Params, &p) == nil {
			s.cancelServerRequest(p.RequestID)
		}
	}
	it.listener = s.listenerOf(m)
	s.notes.push(it)
}

// dispatchNotification runs on the queue's drainer, outside every lock.
func (s *Session) dispatchNotification(it noteItem) {
	if it.onProgress != nil {
		it.onProgress(it.progress)
	}
	if it.listener != nil {
		it.listener.report(listenEvent(it.listener, it.msg))
	}
	if s.opts.OnNotification != nil {
		s.opts.OnNotification(it.msg)
	}
	s.mu.Lock()
	ids := make([]int, 0, len(s.subs))
	for id := range s.subs {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	fns := make([]func(*jsonrpc.Message), len(ids))
	for i, id := range ids {
		fns[i] = s.subs[id]
	}
	s.mu.Unlock()
	for _, fn := range fns {
		fn(it.msg)
	}
}
