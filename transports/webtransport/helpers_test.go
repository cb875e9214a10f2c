package webtransport

import (
	"context"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/webtransport/wttest"
)

// hangGuard bounds every wait in these tests; it only fires on a hang.
const hangGuard = guard.Hang

// testCtx is a context that ends with the test or at the hang guard.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	t.Cleanup(cancel)
	return ctx
}

// newTransport builds a transport to ts that pins its certificate and
// captures into a fresh store; mod adjusts the config.
func newTransport(t *testing.T, ts *wttest.Server, mod func(*Config)) (*Transport, *capture.Store) {
	t.Helper()
	store := capture.NewStore(capture.Config{})
	cfg := Config{URL: ts.URL, CertHashes: []string{ts.Hash}, Sink: store}
	if mod != nil {
		mod(&cfg)
	}
	tr, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return tr, store
}

// connect runs the engine over a transport to ts and connects it.
func connect(t *testing.T, ts *wttest.Server, mod func(*Config), opts client.Options) (*client.Session, *Transport, *capture.Store) {
	t.Helper()
	tr, store := newTransport(t, ts, mod)
	s := client.New(tr, opts)
	if err := s.Connect(testCtx(t)); err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, tr, store
}

// controlFrames returns the control frames of a direction held by store.
func controlFrames(store *capture.Store, dir capture.Dir) []*capture.Frame {
	var out []*capture.Frame
	for _, f := range store.Window(0, store.Len()) {
		if f.Chan.Kind == capture.Control && f.Dir == dir {
			out = append(out, f)
		}
	}
	return out
}

// eventually polls cond until it holds or the hang guard fires.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never happened: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// echoTool answers every tools/call with its name as text, and ping.
func echoTool(p *wttest.Peer, m *jsonrpc.Message) {
	switch m.Method {
	case mcp.MethodToolsCall:
		p.Result(*m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": wttest.ToolName(m)}}})
	case mcp.MethodPing:
		p.Result(*m.ID, map[string]any{})
	}
}
