package client

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// restartingTransport is a fake transport that reports forgotten sessions
// (Traits.Restarts), as Streamable HTTP does; it notes whether
// notifications/initialized went in a restarted session. Its link is in
// session s-N after the Nth initialize, or in s-1 throughout when the
// server reuses its session id or gives no new one.
type restartingTransport struct {
	*fakeTransport
	restart func(ctx context.Context, expired string) error
	reuse   bool // the link stays in session s-1
	mu      sync.Mutex
	marked  []bool // InRestartedSession of each notifications/initialized
	inits   int
}

func (r *restartingTransport) Describe() Traits {
	return Traits{
		Restarts: func(fn func(context.Context, string) error) { r.restart = fn },
		Link:     r.link,
	}
}

func (r *restartingTransport) link() LinkState {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.inits
	if r.reuse {
		n = 1
	}
	return LinkState{SessionID: fmt.Sprintf("s-%d", n)}
}

func (r *restartingTransport) Send(ctx context.Context, m *jsonrpc.Message) error {
	r.mu.Lock()
	switch m.Method {
	case mcp.MethodInitialize:
		r.inits++
	case mcp.MethodNotifyInitialized:
		r.marked = append(r.marked, InRestartedSession(ctx))
	}
	r.mu.Unlock()
	return r.fakeTransport.Send(ctx, m)
}

// connectRestarting connects over a restartingTransport whose server
// answers the later initialize requests with answer.
func connectRestarting(t *testing.T, reuse bool, answer func(srv *fakeServer, m *jsonrpc.Message)) (*Session, *restartingTransport) {
	t.Helper()
	rt := &restartingTransport{fakeTransport: newFake(t, serve(false, answer)), reuse: reuse}
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
	_, rt := connectRestarting(t, false, func(srv *fakeServer, m *jsonrpc.Message) {
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
	inits := initializeRequests(rt)
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
// why, and the next message that meets the forgotten session (the link
// still in it) tries again.
func TestRestartSessionRefused(t *testing.T) {
	_, rt := connectRestarting(t, true, func(srv *fakeServer, m *jsonrpc.Message) {
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

// A server that gives the new session the id of the one it forgot is
// forgetting it again when it next answers 404: the engine starts another
// session, not taking the old id for one replaced already.
func TestRestartSessionAgainUnderAReusedID(t *testing.T) {
	_, rt := connectRestarting(t, true, func(srv *fakeServer, m *jsonrpc.Message) {
		if m.Method == mcp.MethodInitialize {
			srv.result(*m.ID, map[string]any{"protocolVersion": mcp.LatestLegacy, "capabilities": map[string]any{}})
		}
	})
	for range 2 {
		if err := rt.restart(testCtx(t), "s-1"); err != nil {
			t.Fatalf("restart: %v", err)
		}
	}
	if n := len(initializeRequests(rt)); n != 3 {
		t.Errorf("%d initialize requests, want 3: the session was started again once per expiry", n)
	}
}

// initializeRequests returns the initialize requests the server got.
func initializeRequests(rt *restartingTransport) []*jsonrpc.Message {
	var inits []*jsonrpc.Message
	for _, m := range rt.srv.sentMessages() {
		if m.Method == mcp.MethodInitialize {
			inits = append(inits, m)
		}
	}
	return inits
}
