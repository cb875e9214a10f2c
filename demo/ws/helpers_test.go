package demows

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/gateway"
)

// bound bounds every wait in these tests; it only fires on a hang.
const bound = guard.Hang

// server is a Handler on 127.0.0.1 over a demo core.
type server struct {
	h    *Handler
	base string // ws://127.0.0.1:PORT
}

// startServer serves a fresh core with opts; everything stops at cleanup.
func startServer(t testing.TB, opts Options) *server {
	t.Helper()
	core, err := demo.New(demo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := New(core, opts)
	hs := httptest.NewServer(h)
	t.Cleanup(func() {
		h.Close()
		hs.Close()
		_ = core.Close()
	})
	return &server{h: h, base: "ws" + strings.TrimPrefix(hs.URL, "http")}
}

// client is a raw coder/websocket connection.
type client struct {
	t testing.TB
	c *websocket.Conn
}

// dial connects to path, offering protos.
func (s *server) dial(t testing.TB, path string, protos ...string) *client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	c, _, err := websocket.Dial(ctx, s.base+path, &websocket.DialOptions{Subprotocols: protos})
	if err != nil {
		t.Fatalf("dial %s: %v", path, err)
	}
	c.SetReadLimit(-1)
	t.Cleanup(func() { _ = c.CloseNow() })
	return &client{t: t, c: c}
}

// send writes one message.
func (c *client) send(typ websocket.MessageType, b []byte) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	if err := c.c.Write(ctx, typ, b); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// text writes one text message.
func (c *client) text(s string) { c.t.Helper(); c.send(websocket.MessageText, []byte(s)) }

// read reads one message.
func (c *client) read() (websocket.MessageType, []byte) {
	c.t.Helper()
	typ, b, err := c.readErr()
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	return typ, b
}

// readErr reads one message or the error that ends the connection.
func (c *client) readErr() (websocket.MessageType, []byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	return c.c.Read(ctx)
}

// readText reads until a text message holding want, skipping pings.
func (c *client) readText(want string) string {
	c.t.Helper()
	for {
		typ, b := c.read()
		if typ == websocket.MessageText && strings.Contains(string(b), want) {
			return string(b)
		}
		if typ == websocket.MessageText && string(b) == string(pingFrame) {
			continue
		}
		c.t.Fatalf("waiting for %q, got %s", want, b)
	}
}

// stream reads one StreamMessage text message.
func (c *client) stream() *gateway.StreamMessage {
	c.t.Helper()
	typ, b := c.read()
	if typ != websocket.MessageText {
		c.t.Fatalf("want a StreamMessage, got binary % x", b[:min(len(b), 32)])
	}
	m, err := gateway.DecodeStreamMessage(b)
	if err != nil {
		c.t.Fatalf("%s: %v", b, err)
	}
	return m
}

// binary reads one binary message.
func (c *client) binary() []byte {
	c.t.Helper()
	typ, b := c.read()
	if typ != websocket.MessageBinary {
		c.t.Fatalf("want a binary chunk, got %s", b)
	}
	return b
}

// unhex decodes hex with spaces.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// seedID is seed 003's example stream id, and seedIDDotNet its 16 bytes
// in .NET order.
const (
	seedID       = "550e8400-e29b-41d4-a716-446655440000"
	seedIDDotNet = "00 84 0e 55 9b e2 d4 41 a7 16 44 66 55 44 00 00"
)

// dotNet writes g's 16 bytes in .NET order by hand: the first three
// groups reversed, the last eight as they are.
func dotNet(g gateway.GUID) []byte {
	return []byte{g[3], g[2], g[1], g[0], g[5], g[4], g[7], g[6], g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]}
}

// start is a start StreamMessage for seed 003's example id.
func start(method string, meta string) string {
	if meta != "" {
		meta = "," + meta
	}
	return `{"type":"start","id":"` + seedID + `","timestamp":"2024-12-04T10:00:00Z","meta":{"method":"` + method + `","binary":true` + meta + `}}`
}

// summary decodes a done's summary.
func summary(t testing.TB, m *gateway.StreamMessage) map[string]any {
	t.Helper()
	if m.Type != gateway.StreamDone {
		t.Fatalf("want done, got %s %+v", m.Type, m.Error)
	}
	var v map[string]any
	if err := json.Unmarshal(m.Summary, &v); err != nil {
		t.Fatal(err)
	}
	return v
}
