package ws

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// bigRoots are 64 roots of about 1 KB each: a roots/list answer of 64 KB.
func bigRoots() []mcp.Root {
	roots := make([]mcp.Root, 64)
	for i := range roots {
		roots[i] = mcp.Root{URI: fmt.Sprintf("file:///%04d/%s", i, strings.Repeat("r", 1000))}
	}
	return roots
}

// A peer that writes 300 roots/list, whose 64 KB answers fill the TCP
// buffers towards it, then 20,000 pings of 1 KB each, more than the
// buffers towards mcpscope hold, all before it reads a byte: mcpscope's
// reader takes every ping without waiting on its own stuck writes (or
// both sides would wait for each other), and once the peer reads, every
// request has its answer.
func TestPingFloodBeforeReadingAllAnswered(t *testing.T) {
	asks, pings := guard.Flood(300), guard.Flood(20_000) // a fifth under the race detector
	roots := bigRoots()
	counted := make(chan int, 1)
	p := startPeer(t, []string{"mcp"}, func(ctx context.Context, c *websocket.Conn) {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		_ = c.Write(ctx, websocket.MessageText, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"flood","version":"1"}}}`, frameID(data)))
		if _, _, err := c.Read(ctx); err != nil { // notifications/initialized
			return
		}
		for i := range asks {
			_ = c.Write(ctx, websocket.MessageText, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"roots/list"}`, i))
		}
		pad := strings.Repeat("x", 1000)
		for i := range pings {
			if c.Write(ctx, websocket.MessageText, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":"p%d","method":"ping","params":{"pad":%q}}`, i, pad)) != nil {
				return
			}
		}
		seen := map[string]bool{}
		for len(seen) < asks+pings {
			_, data, err := c.Read(ctx)
			if err != nil {
				break
			}
			seen[string(frameID(data))] = true
		}
		counted <- len(seen)
		_, _, _ = c.Read(ctx)
	})
	tr, err := New(Config{URL: p.url})
	if err != nil {
		t.Fatal(err)
	}
	s := client.New(tr, client.Options{ProtocolVersion: "2025-11-25", Roots: roots})
	if err := s.Connect(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	select {
	case n := <-counted:
		if n != asks+pings {
			t.Fatalf("the peer got %d answers to its %d requests", n, asks+pings)
		}
	case <-ctxT(t).Done():
		t.Fatal("the peer and mcpscope still wait for each other")
	}
}
