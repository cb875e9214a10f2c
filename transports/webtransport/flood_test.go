package webtransport

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/webtransport/wttest"
)

// A peer that writes 300 roots/list, whose 64 KB answers fill the
// control stream's flow-control window towards it, then 20,000 pings of
// 1 KB each, more than the window towards mcpscope holds, all before it
// reads a byte: mcpscope's reader takes every ping without waiting on
// its own stuck writes (or both sides would wait for each other), and
// once the peer reads, every request has its answer.
func TestPingFloodBeforeReadingAllAnswered(t *testing.T) {
	asks, pings := guard.Flood(300), guard.Flood(20_000) // a fifth under the race detector
	roots := make([]mcp.Root, 64)
	for i := range roots {
		roots[i] = mcp.Root{URI: fmt.Sprintf("file:///%04d/%s", i, strings.Repeat("r", 1000))}
	}
	counted := make(chan int, 1)
	ts := wttest.NewServer(t, func(p *wttest.Peer) {
		if _, ok := p.Handshake("json"); !ok {
			return
		}
		for i := range asks {
			m, _ := jsonrpc.NewRequest(jsonrpc.IntID(int64(i)), mcp.MethodRootsList, nil)
			p.Send(m)
		}
		pad := map[string]string{"pad": strings.Repeat("x", 1000)}
		for i := range pings {
			m, _ := jsonrpc.NewRequest(jsonrpc.IntID(int64(1_000_000+i)), mcp.MethodPing, pad)
			p.Send(m)
		}
		seen := map[string]bool{}
		for len(seen) < asks+pings {
			m, ok := p.Next()
			if !ok {
				break
			}
			if m.IsResponse() {
				seen[m.ID.Key()] = true
			}
		}
		counted <- len(seen)
	})
	connect(t, ts, nil, client.Options{Timeout: guard.Run, Roots: roots})
	select {
	case n := <-counted:
		if n != asks+pings {
			t.Fatalf("the peer got %d answers to its %d requests", n, asks+pings)
		}
	case <-time.After(hangGuard):
		t.Fatalf("the peer and mcpscope still wait for each other within %s", hangGuard)
	}
}
