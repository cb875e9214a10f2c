package cli

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// listenTally counts what one subscriptions/listen saw; onEvent runs on
// the engine's goroutines.
type listenTally struct {
	mu       sync.Mutex
	acked    bool
	notes    int
	reissues int
	id       jsonrpc.ID
	failed   error // the first stdout write that failed
}

// listen runs `call subscriptions/listen`: the acknowledgement and every
// notification tagged with the subscription go to stdout as they arrive,
// one JSON message a line; opening, breaks and re-issues go to stderr. The
// server's result, when it ends the subscription, is the last line. A
// subscription the server acknowledged and that runs until --max-time ends
// well (exit 0): listening that long is what was asked. One never
// acknowledged within --timeout is a timeout.
func (r *run) listen(ctx context.Context, params any) error {
	t := &listenTally{}
	started := time.Now()
	res, err := r.session.Listen(ctx, params, func(ev client.ListenEvent) { r.listenEvent(t, ev) })
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.failed != nil {
		return t.failed
	}
	var te *client.TimeoutError
	if errors.As(err, &te) && te.MaxTime && t.acked {
		r.io.diag.Println(fmt.Sprintf("listened %s (--max-time): %s on subscription %s, re-issued %s",
			time.Since(started).Round(time.Millisecond), plural.Count(t.notes, "notification", "notifications"), t.id, plural.Count(t.reissues, "time", "times")))
		return nil
	}
	if err != nil {
		return err
	}
	return r.emit(ctx, res)
}

// listenEvent reports one event of a subscription.
func (r *run) listenEvent(t *listenTally, ev client.ListenEvent) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch ev.Kind {
	case client.ListenOpened:
		t.id = ev.ID
		if ev.Round > 1 {
			t.reissues++
			r.io.diag.Println(fmt.Sprintf("re-issued subscriptions/listen as id %s", ev.ID))
		}
	case client.ListenAcknowledged, client.ListenNotified:
		if ev.Kind == client.ListenAcknowledged {
			t.acked = true
		} else {
			t.notes++
		}
		if err := writeJSON(r.io.out, ev.Message.Raw, r.io.pretty); err != nil && t.failed == nil {
			t.failed = err
		}
	case client.ListenBroken:
		then := fmt.Sprintf("re-issuing in %s", ev.Retry)
		if ev.Final {
			then = "giving up"
		}
		r.io.diag.Println(fmt.Sprintf("subscription %s broke: %s; %s", ev.ID, termtext.Line(ev.Err.Error()), then))
	}
}
