package client

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// restartingTransport is a fake transport that reports forgotten sessions
// (Traits.Restarts), as Streamable HTTP does; it notes whether
// notifications/initialized went in a restarted session.
type restartingTransport struct {
	*fakeTransport
	restart func(ctx context.Context, expired string) error
	mu      sync.Mutex
	marked  []bool // InRestartedSession of each notifications/initialized
}

func (r *restartingTransport) Describe() Traits {
	return Traits{Restarts: func(fn func(context.Context, string) error) { r.restart = fn }}
}

func (r *restartingTransport) Send(ctx context.Context, m *jsonrpc.Message) error {
	if m.Method == mcp.MethodNotifyInitialized {
		r.mu.Lock()
		r.marked = append(r.marked, InRestartedSession(ctx))
		r.mu.Unlock()
	}
	return r.fakeTransport.Send(ctx, m)
}

// connectRestarting connects over a restartingTransport whose server
// answers the later initialize requests with answer.
func connectRestarting(t *testing.T, answer func(srv *fakeServer, m *jsonrpc.Message)) (*Session, *restartingTransport) {
	t.Helper()
	rt := &restartingTransport{fakeTransport: newFake(t, serve(false, answer))}
	s := New(rt, Options{ProtocolVersion: mcp.LatestLegacy})
	if err := s.Connect(testCtx(t)); err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, rt
}

// Messages that met the same forgotten session share one new session:
// the engine sends the first initialize's params again under an id of its
// own, then notifications/initialized marked as in the restarted session;
// a message that meets the forgotten session afterwards is sent again at
// once.
func TestRestartSessionInitializesOnceAgain(t *testing.T) {
	_, rt := connectRestarting(t, func(srv *fakeServer, m *jsonrpc.Message) {
		if m.Method == mcp.MethodInitialize {
			srv.result(*m.ID, map[string]any{"protocolVersion": mcp.LatestLegacy, "capabilities": map[string]any{}})
		}
	})
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			if err := rt.restart(testCtx(t), "s-1"); err != nil {
				t.Errorf("restart: %v", err)
			}
		})
	}
	wg.Wait()
	if err := rt.restart(testCtx(t), "s-1"); err != nil {
		t.Fatalf("restart after the new session started: %v", err)
	}
	var inits []*jsonrpc.Message
	for _, m := range rt.srv.sentMessages() {
		if m.Method == mcp.MethodInitialize {
			inits = append(inits, m)
		}
	}
	if len(inits) != 2 || inits[1].ID.String() != jsonrpc.StringID("mcpscope-initialize-1").String() ||
		string(inits[1].Params) != string(inits[0].Params) {
		t.Fatalf("initialize requests %v, want the first's params again as mcpscope-initialize-1", methods(inits))
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if len(rt.marked) != 2 || rt.marked[0] || !rt.marked[1] {
		t.Errorf("notifications/initialized in a restarted session: %v, want [false true]", rt.marked)
	}
}

// A new session the server refuses to start fails the restart, saying
// why, and the next message that meets the forgotten session tries again.
func TestRestartSessionRefused(t *testing.T) {
	_, rt := connectRestarting(t, func(srv *fakeServer, m *jsonrpc.Message) {
		if m.Method == mcp.MethodInitialize {
			srv.fail(*m.ID, mcp.CodeInternalError, "no more sessions")
		}
	})
	for range 2 {
		err := rt.restart(testCtx(t), "s-1")
		if err == nil || !strings.Contains(err.Error(), "initialize was refused: -32603 no more sessions") {
			t.Fatalf("restart: %v", err)
		}
	}
}
