package client

import (
	"bytes"
	"sync/atomic"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Large notifications that come faster than the subscribers take them are
// held up to maxQueuedNotificationBytes, not 8192 of them whatever their
// size; the rest are dropped and counted.
func TestNotificationQueueBoundsBytes(t *testing.T) {
	const size, sent = 1 << 20, 200
	release := make(chan struct{})
	var handled atomic.Int64
	var dropped atomic.Uint64
	q := newNotificationQueue(func(noteItem) {
		<-release // a subscriber that has fallen behind
		handled.Add(1)
	}, &dropped)
	body := bytes.Repeat([]byte("x"), size)
	for range sent {
		q.push(noteItem{msg: &jsonrpc.Message{Method: mcp.MethodNotifyMessage, Raw: body}})
	}
	q.mu.Lock()
	held, heldBytes := len(q.items), q.bytes
	q.mu.Unlock()
	if heldBytes > maxQueuedNotificationBytes || held == 0 {
		t.Fatalf("%d notifications (%d bytes) held, want at most %d bytes", held, heldBytes, maxQueuedNotificationBytes)
	}
	close(release)
	q.waitHandled(testCtx(t), q.queued())
	if got := uint64(handled.Load()) + dropped.Load(); got != sent {
		t.Fatalf("%d handled + %d dropped, want %d in all", handled.Load(), dropped.Load(), sent)
	}
	if dropped.Load() == 0 {
		t.Fatal("nothing was dropped")
	}
}
