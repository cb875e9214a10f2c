package ws

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Seed 004's tool frames: exactly {"id":N,"name":…,"arguments":…} with
// growing numeric ids; answers matched by id (in any order) and removed;
// a ping and a notification (which the seed lets a server send) are shown
// as they are, not as decode errors, and not delivered; an answer to an id
// never sent is shown and ignored with its reason.
func TestToolFramesAndAnswers(t *testing.T) {
	var mu sync.Mutex
	var wire []string
	p := startPeer(t, nil, func(ctx context.Context, c *websocket.Conn) {
		for range 2 {
			_, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			mu.Lock()
			wire = append(wire, string(data))
			mu.Unlock()
		}
		for _, s := range []string{
			`{"type":"ping"}`,
			`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`,
			`{"jsonrpc":"2.0","id":99,"result":{"content":[]}}`,
			`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"two"}]}}`,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"unknown tool"}}`,
			`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`,
		} {
			_ = c.Write(ctx, websocket.MessageText, []byte(s))
		}
		// Stay open until the client leaves: returning would drop the
		// connection under the rest of the test.
		for {
			if _, _, err := c.Read(ctx); err != nil {
				return
			}
		}
	})
	tr, fr, got := dial(t, Config{URL: p.url, Mode: ModeTools})
	if !tr.HandshakeFree() || tr.LinkState().Transport != "tools-ws" {
		t.Error("tools-ws must be handshake-free and say so")
	}
	for i, args := range []string{`{"text":"hi"}`, `{}`} {
		m := request(t, int64(i+1), mcp.MethodToolsCall, map[string]any{"name": "echo", "arguments": jsonRaw(args)})
		if err := tr.Send(ctxT(t), m); err != nil {
			t.Fatal(err)
		}
	}
	if m := next(t, got); m.ID.Key() != jsonrpc.IntID(2).Key() || m.Kind() != jsonrpc.KindResult {
		t.Errorf("first answer %+v", m)
	}
	if m := next(t, got); m.ID.Key() != jsonrpc.IntID(1).Key() || m.Kind() != jsonrpc.KindError {
		t.Errorf("second answer %+v", m)
	}
	mu.Lock()
	want := []string{`{"id":1,"name":"echo","arguments":{"text":"hi"}}`, `{"id":2,"name":"echo","arguments":{}}`}
	if strings.Join(wire, "\n") != strings.Join(want, "\n") {
		t.Errorf("wire frames:\n%s\nwant:\n%s", strings.Join(wire, "\n"), strings.Join(want, "\n"))
	}
	mu.Unlock()
	for _, s := range []string{`"id":99`, `"id":1,"result"`} {
		f := fr.waitFrame(t, s)
		if f.Err == nil || !strings.Contains(f.Err.Error(), "shown and ignored") {
			t.Errorf("%s: not shown as ignored: %+v", s, f)
		}
	}
	if f := fr.waitFrame(t, `{"type":"ping"}`); f.Err != nil || f.Msg != nil {
		t.Errorf("the seed's ping is shown as a decode error: %+v", f)
	}
	if f := fr.waitFrame(t, `"notifications/message"`); f.Err != nil || f.Msg == nil || f.Msg.Method != "notifications/message" {
		t.Errorf("a notification is not shown as one: %+v", f)
	}
	select {
	case m := <-got:
		t.Errorf("an unsolicited frame was delivered: %+v", m)
	default:
	}
	// Other requests have no frame; a notification is noted.
	if err := tr.Send(ctxT(t), request(t, 5, mcp.MethodToolsList, nil)); err == nil || !strings.Contains(err.Error(), "carry tools/call only") {
		t.Errorf("tools/list: %v", err)
	}
	note, _ := jsonrpc.NewNotification(mcp.MethodNotifyCancelled, map[string]any{"requestId": 1})
	if err := tr.Send(ctxT(t), note); err != nil || fr.find("carry no notifications (notifications/cancelled)") == nil {
		t.Errorf("a notification: %v", err)
	}
	// A call given up is no longer pending.
	if err := tr.Send(ctxT(t), request(t, 7, mcp.MethodToolsCall, map[string]any{"name": "slow"})); err != nil {
		t.Fatal(err)
	}
	abort := tr.Describe().Abort
	if abort == nil || !abort(jsonrpc.IntID(7), "given up") {
		t.Fatal("tools-ws declares no Abort, or it did not abort")
	}
	tr.tools.mu.Lock()
	left := len(tr.tools.pending)
	tr.tools.mu.Unlock()
	if left != 0 {
		t.Errorf("%d calls still pending after the cancellation", left)
	}
}

func jsonRaw(s string) any { return rawJSON(s) }

type rawJSON string

func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r), nil }

// A close frame fails every call in flight with the close code and
// reason; a call after it is refused.
func TestToolCallsFailOnClose(t *testing.T) {
	p := startPeer(t, nil, func(ctx context.Context, c *websocket.Conn) {
		for range 2 {
			if _, _, err := c.Read(ctx); err != nil {
				return
			}
		}
		_ = c.Close(websocket.StatusInternalError, "worker crashed")
	})
	s := toolsSession(t, p.url)
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := s.Call(ctxT(t), mcp.MethodToolsCall, map[string]any{"name": "slow"})
			errs <- err
		}()
	}
	for range 2 {
		err := <-errs
		var ce *client.ConnectionError
		if !errors.As(err, &ce) || err.Error() != "connection lost: the server closed the WebSocket with 1011 (internal error): worker crashed" {
			t.Errorf("pending call: %v", err)
		}
	}
	if _, err := s.Call(ctxT(t), mcp.MethodToolsCall, map[string]any{"name": "late"}); err == nil {
		t.Error("a call after the close succeeded")
	}
}

// Calls sent at once go out with wire ids that grow in the order the
// frames are written, and each answer reaches its own request.
func TestToolIDsGrowUnderConcurrentCalls(t *testing.T) {
	const calls = 20
	var mu sync.Mutex
	var order []int64
	p := startPeer(t, nil, func(ctx context.Context, c *websocket.Conn) {
		for range calls {
			_, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			var f struct {
				ID   int64  `json:"id"`
				Name string `json:"name"`
			}
			_ = json.Unmarshal(data, &f)
			mu.Lock()
			order = append(order, f.ID)
			mu.Unlock()
			_ = c.Write(ctx, websocket.MessageText, []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":%q}]}}`, f.ID, f.Name)))
		}
		_, _, _ = c.Read(ctx)
	})
	s := toolsSession(t, p.url)
	var wg sync.WaitGroup
	for i := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("tool-%d", i)
			res, err := s.Call(ctxT(t), mcp.MethodToolsCall, map[string]any{"name": name})
			if err != nil || !strings.Contains(string(res), `"`+name+`"`) {
				t.Errorf("%s: %s, %v", name, res, err)
			}
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	for i, id := range order {
		if id != int64(i+1) {
			t.Fatalf("wire ids in arrival order: %v", order)
		}
	}
}

// toolsSession connects an engine session over tools-ws to url; it
// closes with the test.
func toolsSession(t *testing.T, url string) *client.Session {
	t.Helper()
	tr, err := New(Config{URL: url, Mode: ModeTools})
	if err != nil {
		t.Fatal(err)
	}
	s := client.New(tr, client.Options{})
	if err := s.Connect(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// The engine gives up a tools-ws call by forgetting it (Traits.Abort):
// the call is no longer pending, and the capture says, as for any
// notification, that no notifications/cancelled went out. Other modes
// cancel with notifications/cancelled, so they declare no Abort.
func TestToolCallGivenUpIsForgotten(t *testing.T) {
	p := startPeer(t, nil, func(ctx context.Context, c *websocket.Conn) {
		for {
			if _, _, err := c.Read(ctx); err != nil {
				return
			}
		}
	})
	fr := &frames{}
	tr, err := New(Config{URL: p.url, Mode: ModeTools, Sink: fr})
	if err != nil {
		t.Fatal(err)
	}
	s := client.New(tr, client.Options{})
	if err := s.Connect(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	_, err = s.Call(ctxT(t), mcp.MethodToolsCall, map[string]any{"name": "slow"}, client.WithTimeout(50*time.Millisecond))
	var te *client.TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v, want a TimeoutError", err)
	}
	fr.waitFrame(t, "carry no notifications (notifications/cancelled)")
	tr.tools.mu.Lock()
	left := len(tr.tools.pending)
	tr.tools.mu.Unlock()
	if left != 0 {
		t.Errorf("%d calls still pending after the timeout", left)
	}
	mcpWS, err := New(Config{URL: p.url})
	if err != nil {
		t.Fatal(err)
	}
	if mcpWS.Describe().Abort != nil {
		t.Error("MCP over WebSocket declares Abort: it cancels with notifications/cancelled")
	}
}
