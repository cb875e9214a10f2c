package stdio

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// takeTurn waits for the write slot for m and returns the context its
// write runs under, and the function that gives the slot back.
//
// An answer's time limit measures the server taking no bytes, not time
// spent queued: while the writes ahead of it end, one after the other,
// within the limit, the answer waits on, and once its turn comes its
// write gets the whole limit again. Only when no write ended for as long
// as the limit does the wait fail, with ctx's deadline error. Other
// messages wait within ctx.
func (t *Transport) takeTurn(ctx context.Context, m *jsonrpc.Message) (context.Context, func(), error) {
	deadline, ok := ctx.Deadline()
	if !ok || !m.IsResponse() {
		select {
		case t.wslot <- struct{}{}: // free: no need to watch ctx
			return ctx, t.give, nil
		default:
		}
		select {
		case t.wslot <- struct{}{}:
			return ctx, t.give, nil
		case <-ctx.Done():
			return nil, nil, fmt.Errorf("sending the %s was cancelled: %w", describe(m), ctx.Err())
		case <-t.life.Done():
			return nil, nil, t.life.Gone()
		}
	}
	limit := time.Until(deadline)
	expired, stop := t.watchTurns(limit)
	defer stop()
	// One wait on the slot, so the answer keeps its place among the
	// writers waiting: the watcher, not a timer here, decides it expired.
	select {
	case t.wslot <- struct{}{}:
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), limit)
		return wctx, func() { cancel(); t.giveTurn() }, nil
	case <-t.life.Done():
		return nil, nil, t.life.Gone()
	case <-expired:
		return nil, nil, fmt.Errorf("sending the %s: no write ahead of it ended within %s: %w",
			describe(m), limit, context.DeadlineExceeded)
	}
}

// watchTurns returns a channel closed once no write ended for limit, and
// the function that stops watching.
func (t *Transport) watchTurns(limit time.Duration) (<-chan struct{}, func()) {
	expired := make(chan struct{})
	var (
		mu      sync.Mutex
		stopped bool
		timer   *time.Timer
	)
	seen := t.turns.Load()
	check := func() {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		if now := t.turns.Load(); now != seen {
			seen = now
			timer.Reset(limit)
			return
		}
		close(expired)
	}
	mu.Lock()
	timer = time.AfterFunc(limit, check)
	mu.Unlock()
	return expired, func() {
		mu.Lock()
		stopped = true
		mu.Unlock()
		timer.Stop()
	}
}

// giveTurn gives the write slot back, counting a write that ended.
func (t *Transport) giveTurn() {
	t.turns.Add(1)
	<-t.wslot
}
