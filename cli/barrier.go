package cli

import (
	"context"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// maxNotificationWait bounds how long a run waits, once its result is in,
// for the notifications that came before the result to be handled.
const maxNotificationWait = 2 * time.Second

// notificationBarrier lets a run print every progress line that arrived
// before its result before it exits. The engine hands notifications to
// callbacks on its own goroutine, so the last one may still be on its way
// when Call returns; the barrier counts the notifications the transport
// read (as frames, before the engine sees them) and those the engine has
// dispatched, and Wait blocks until the second catches up with the first.
type notificationBarrier struct {
	mu         sync.Mutex
	seen       int           // notifications read off the wire
	dispatched int           // notifications the engine has handed to callbacks
	signal     chan struct{} // pulsed on every dispatch
}

func newNotificationBarrier() *notificationBarrier {
	return &notificationBarrier{signal: make(chan struct{}, 1)}
}

// Append counts the notifications read from the server. It is a capture.Sink.
func (b *notificationBarrier) Append(f *capture.Frame) uint64 {
	if f.Dir == capture.In && f.Err == nil && f.Msg != nil && f.Msg.Kind() == proto.KindNotification {
		b.mu.Lock()
		b.seen++
		b.mu.Unlock()
	}
	return 0
}

// Dispatched counts one notification handled by the engine; it is the
// session's OnNotification, which the engine calls after the progress
// callback of the same notification.
func (b *notificationBarrier) Dispatched(*proto.Message) {
	b.mu.Lock()
	b.dispatched++
	b.mu.Unlock()
	select {
	case b.signal <- struct{}{}:
	default:
	}
}

// Wait blocks until every notification read so far was dispatched, except
// dropped ones (dropped reports how many the engine dropped), or until ctx
// ends or maxNotificationWait passes.
func (b *notificationBarrier) Wait(ctx context.Context, dropped func() uint64) {
	b.mu.Lock()
	target := b.seen
	b.mu.Unlock()
	limit := time.NewTimer(maxNotificationWait)
	defer limit.Stop()
	for {
		b.mu.Lock()
		done := uint64(b.dispatched)+dropped() >= uint64(target)
		b.mu.Unlock()
		if done {
			return
		}
		select {
		case <-b.signal:
		case <-ctx.Done():
			return
		case <-limit.C:
			return
		}
	}
}
