package cli

import (
	"context"
	"runtime"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
)

func TestNotificationBarrierWaitsForDispatch(t *testing.T) {
	b := newNotificationBarrier()
	note := decoded(t, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`)
	for range 3 {
		b.Append(&capture.Frame{Dir: capture.In, Msg: note})
	}
	// Frames that are not incoming notifications are not counted.
	b.Append(&capture.Frame{Dir: capture.Out, Msg: note})
	b.Append(&capture.Frame{Dir: capture.In, Msg: decoded(t, `{"jsonrpc":"2.0","id":1,"result":{}}`)})

	go func() {
		for range 3 {
			runtime.Gosched()
			b.Dispatched(note)
		}
	}()
	b.Wait(context.Background(), func() uint64 { return 0 })
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.seen != 3 || b.dispatched != 3 {
		t.Fatalf("Wait returned with %d of %d dispatched", b.dispatched, b.seen)
	}
}

func TestNotificationBarrierCountsDroppedAndStopsOnCancel(t *testing.T) {
	b := newNotificationBarrier()
	note := decoded(t, `{"jsonrpc":"2.0","method":"notifications/message","params":{}}`)
	b.Append(&capture.Frame{Dir: capture.In, Msg: note})
	b.Append(&capture.Frame{Dir: capture.In, Msg: note})
	b.Dispatched(note)
	b.Wait(context.Background(), func() uint64 { return 1 }) // one dropped: nothing to wait for

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b.Append(&capture.Frame{Dir: capture.In, Msg: note})
	b.Wait(ctx, func() uint64 { return 0 }) // returns although one is missing
}
