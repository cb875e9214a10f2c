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
		time.Sleep(pongHold + 500*time.Millisecond) // the writes make no progress for longer than pongHold
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
