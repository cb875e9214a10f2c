package ws

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// bound bounds every wait in these tests; it only fires on a hang.
const bound = guard.Hang

// peer is a raw coder/websocket server: script runs on each accepted
// connection; the upgrade request is kept.
type peer struct {
	url   string
	mu    sync.Mutex
	upReq *http.Request
}

// startPeer serves script on 127.0.0.1; protos are the subprotocols it
// accepts.
func startPeer(t *testing.T, protos []string, script func(ctx context.Context, c *websocket.Conn)) *peer {
	t.Helper()
	p := &peer{}
	srv := httptest.NewServer(p.handler(protos, script))
	t.Cleanup(srv.Close)
	p.url = "ws" + strings.TrimPrefix(srv.URL, "http") + "/mcp"
	return p
}

// handler keeps the upgrade request, accepts the WebSocket with protos
// and runs script on it.
func (p *peer) handler(protos []string, script func(ctx context.Context, c *websocket.Conn)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.upReq = r.Clone(context.Background())
		p.mu.Unlock()
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: protos, InsecureSkipVerify: true})
		if err != nil {
			return
		}
		defer c.CloseNow()
		c.SetReadLimit(-1)
		script(r.Context(), c)
	})
}

// request returns the upgrade request the peer got.
func (p *peer) request() *http.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.upReq
}

// frames collects what a transport captured.
type frames struct {
	mu  sync.Mutex
	all []*capture.Frame
}

func (f *frames) Append(fr *capture.Frame) uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	cp := *fr
	f.all = append(f.all, &cp)
	return uint64(len(f.all))
}

// find returns the first frame whose raw bytes hold s.
func (f *frames) find(s string) *capture.Frame {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, fr := range f.all {
		if strings.Contains(string(fr.Raw), s) {
			return fr
		}
	}
	return nil
}

// dial starts a transport on cfg; got receives every delivered message.
func dial(t *testing.T, cfg Config) (*Transport, *frames, chan *jsonrpc.Message) {
	t.Helper()
	fr := &frames{}
	cfg.Sink = fr
	tr, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan *jsonrpc.Message, 64)
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	if err := tr.Start(ctx, func(m *jsonrpc.Message) { got <- m }); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = tr.Close() })
	return tr, fr, got
}

// next returns the next delivered message.
func next(t *testing.T, got chan *jsonrpc.Message) *jsonrpc.Message {
	t.Helper()
	select {
	case m := <-got:
		return m
	case <-time.After(bound):
		t.Fatalf("no message delivered within %s", bound)
		return nil
	}
}

// gone waits for the transport to end and returns why.
func gone(t *testing.T, tr *Transport) error {
	t.Helper()
	select {
	case <-tr.Done():
		return tr.Err()
	case <-time.After(bound):
		t.Fatalf("the transport did not end within %s", bound)
		return nil
	}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	t.Cleanup(cancel)
	return ctx
}

func request(t *testing.T, id int64, method string, params any) *jsonrpc.Message {
	t.Helper()
	m, err := jsonrpc.NewRequest(jsonrpc.IntID(id), method, params)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// startHTTP serves a plain HTTP answer of status to every request; a
// redirect points at another origin.
func startHTTP(t *testing.T, status int) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if status/100 == 3 {
			w.Header().Set("Location", "http://elsewhere.example/mcp")
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte("go away\nsecond line"))
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/mcp"
}

// waitFrame waits until a frame holding s is captured.
func (f *frames) waitFrame(t *testing.T, s string) *capture.Frame {
	t.Helper()
	deadline := time.Now().Add(bound)
	for time.Now().Before(deadline) {
		if fr := f.find(s); fr != nil {
			return fr
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no frame holds %s", s)
	return nil
}

// frameID is the id member of a JSON-RPC frame, as its JSON text.
func frameID(data []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(data, &m)
	return m.ID
}
