package client

import (
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// TestNudgeBumpsEveryPendingRequest: Nudge restarts the idle timer of each
// request awaiting its answer (its bump channel fills) and never blocks,
// however many times it is called.
func TestNudgeBumpsEveryPendingRequest(t *testing.T) {
	s := New(nil, Options{})
	a, b := newWaiter(jsonrpc.IntID(1), "tools/call"), newWaiter(jsonrpc.IntID(2), "tools/list")
	s.pending[a.key], s.pending[b.key] = a, b
	s.Nudge()
	s.Nudge()
	for _, w := range []*waiter{a, b} {
		select {
		case <-w.bump:
		default:
			t.Fatalf("request %s was not nudged", w.method)
		}
	}
}
