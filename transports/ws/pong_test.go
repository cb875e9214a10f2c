package ws

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
)

// A server that stops reading while mcpscope's answers (large roots
// lists) are still going out, then sends a WebSocket ping and a message:
// the pong would wait behind the stuck answers, so it is not sent, and
// the reader goes on to the message.
func TestPingWhileWritesAreStuckDoesNotBlockTheReader(t *testing.T) {
	const asks = 200
	roots := bigRoots()
	p := startPeer(t, []string{"mcp"}, func(ctx context.Context, c *websocket.Conn) {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		_ = c.Write(ctx, websocket.MessageText, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"deaf","version":"1"}}}`, frameID(data)))
		if _, _, err := c.Read(ctx); err != nil { // notifications/initialized
			return
		}
		// From here on nothing is read: the answers, 64 KB each, fill
		// the connection's buffers and mcpscope's writes get stuck.
		for i := range asks {
			_ = c.Write(ctx, websocket.MessageText, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"roots/list"}`, i))
		}
		time.Sleep(300 * time.Millisecond) // the answers' writes are under way, stuck
		pingCtx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		_ = c.Ping(pingCtx) // no pong can be read here: it only writes the ping
		cancel()
		_ = c.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"after the ping"}}`))
		<-ctx.Done()
	})
	tr, err := New(Config{URL: p.url})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	s := client.New(tr, client.Options{ProtocolVersion: "2025-11-25", Roots: roots, Timeout: time.Minute,
		OnNotification: func(m *proto.Message) {
			var params struct {
				Data json.RawMessage `json:"data"`
			}
			_ = json.Unmarshal(m.Params, &params)
			select {
			case got <- string(params.Data):
			default:
			}
		}})
	if err := s.Connect(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	select {
	case data := <-got:
		if data != `"after the ping"` {
			t.Fatalf("notification data %s", data)
		}
	case <-ctxT(t).Done():
		t.Fatalf("the reader did not get past the ping (connection: %v)", tr.Err())
	}
}

// A server that stops reading while mcpscope's answers go out, pings
// early in the stall and only reads again after 6 s, longer than the
// WebSocket library waits on the reader for the write lock a pong needs:
// the pong is not attempted while a write is under way, so the reader
// never waits for that lock, and the connection lives on within
// --timeout until the server reads again.
func TestEarlyPingInAStallKeepsTheConnection(t *testing.T) {
	const asks = 200
	roots := bigRoots()
	p := startPeer(t, []string{"mcp"}, func(ctx context.Context, c *websocket.Conn) {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		_ = c.Write(ctx, websocket.MessageText, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"pausing","version":"1"}}}`, frameID(data)))
		if _, _, err := c.Read(ctx); err != nil { // notifications/initialized
			return
		}
		for i := range asks {
			_ = c.Write(ctx, websocket.MessageText, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"roots/list"}`, i))
		}
		time.Sleep(300 * time.Millisecond) // the answers' writes are under way, stuck
		pingCtx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		_ = c.Ping(pingCtx)
		cancel()
		time.Sleep(6 * time.Second) // a pause in reading, past the library's 5 s wait for its write lock
		_ = c.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"after the pause"}}`))
		for {
			if _, _, err := c.Read(ctx); err != nil {
				return
			}
		}
	})
	tr, err := New(Config{URL: p.url})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan struct{}, 1)
	s := client.New(tr, client.Options{ProtocolVersion: "2025-11-25", Roots: roots, Timeout: time.Minute,
		OnNotification: func(*proto.Message) {
			select {
			case got <- struct{}{}:
			default:
			}
		}})
	if err := s.Connect(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	select {
	case <-got:
	case <-tr.Done():
		t.Fatalf("the connection ended during the server's pause in reading: %v", tr.Err())
	case <-ctxT(t).Done():
		t.Fatal("no notification after the pause")
	}
}
