package ws

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// stallingPeer is a server that answers initialize, then stops reading
// while it asks 200 roots/list (their 64 KB answers fill the connection's
// buffers, so mcpscope's writes get stuck), pings once stalled is closed,
// waits pause, and sends a notifications/message whose data is note; it
// then reads again when drain is set, or waits for the end otherwise.
func stallingPeer(t *testing.T, pause time.Duration, note string, drain bool, stalled <-chan struct{}) *peer {
	t.Helper()
	return startPeer(t, []string{"mcp"}, func(ctx context.Context, c *websocket.Conn) {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		_ = c.Write(ctx, websocket.MessageText, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"stalling","version":"1"}}}`, frameID(data)))
		if _, _, err := c.Read(ctx); err != nil { // notifications/initialized
			return
		}
		for i := range 200 {
			_ = c.Write(ctx, websocket.MessageText, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"roots/list"}`, i))
		}
		select { // the answers' writes are under way, stuck
		case <-stalled:
		case <-ctx.Done():
			return
		}
		pingCtx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		_ = c.Ping(pingCtx) // no pong can be read here: it only writes the ping
		cancel()
		time.Sleep(pause)
		_ = c.Write(ctx, websocket.MessageText, fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":%q}}`, note))
		for drain {
			if _, _, err := c.Read(ctx); err != nil {
				return
			}
		}
		<-ctx.Done()
	})
}

// A server that stops reading while mcpscope's answers (large roots
// lists) are still going out, then sends a WebSocket ping and a message:
// the pong would wait behind the stuck answers, so it is not sent, and
// the reader goes on to the message.
func TestPingWhileWritesAreStuckDoesNotBlockTheReader(t *testing.T) {
	t.Parallel()
	roots := bigRoots()
	stalled := make(chan struct{})
	p := stallingPeer(t, 0, "after the ping", false, stalled)
	tr, err := New(Config{URL: p.url})
	if err != nil {
		t.Fatal(err)
	}
	closeWhenStuck(t, tr, stalled)
	got := make(chan string, 1)
	s := client.New(tr, client.Options{ProtocolVersion: "2025-11-25", Roots: roots, Timeout: guard.Run,
		OnNotification: func(m *jsonrpc.Message) {
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
// the pong is not attempted while the writes under way are stuck, so the
// reader never waits for that lock, and the connection lives on within
// --timeout until the server reads again.
func TestEarlyPingInAStallKeepsTheConnection(t *testing.T) {
	t.Parallel()
	roots := bigRoots()
	// A pause in reading past the library's 5 s wait for its write lock.
	stalled := make(chan struct{})
	p := stallingPeer(t, 6*time.Second, "after the pause", true, stalled)
	tr, err := New(Config{URL: p.url})
	if err != nil {
		t.Fatal(err)
	}
	closeWhenStuck(t, tr, stalled)
	got := make(chan struct{}, 1)
	s := client.New(tr, client.Options{ProtocolVersion: "2025-11-25", Roots: roots, Timeout: guard.Run,
		OnNotification: func(*jsonrpc.Message) {
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

// closeWhenStuck closes stalled once one of tr's writes has been under way
// for a second: the server has stopped taking them, whatever the load of
// the machine, so its ping meets writes that stay stuck.
func closeWhenStuck(t *testing.T, tr *Transport, stalled chan<- struct{}) {
	ctx := ctxT(t)
	go func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			if tr.writes.oldest() > time.Second {
				close(stalled)
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
}

// oldest is how long the oldest write under way has been going.
func (w *writeCount) oldest() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	var d time.Duration
	now := w.clock()
	for _, began := range w.since {
		d = max(d, now.Sub(began))
	}
	return d
}
