package mcphttp

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// The first request after notifications/initialized is POSTed only once
// the server answered initialized: a server that takes its time with the
// 202 never sees the request first, though it comes on another
// connection.
func TestFirstRequestWaitsForInitializedAccepted(t *testing.T) {
	f := newFake(t)
	var (
		mu    sync.Mutex
		order []string
	)
	note := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		order = append(order, s)
	}
	listed := make(chan struct{})
	f.on(mcp.MethodNotifyInitialized, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		note("initialized")
		// Hold the 202 until the request arrives; the grace only bounds the
		// hold of a client that rightly waits.
		select {
		case <-listed:
		case <-time.After(300 * time.Millisecond):
		}
		note("202")
		w.WriteHeader(http.StatusAccepted)
	})
	f.on(mcp.MethodToolsList, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		note("tools/list")
		close(listed)
		writeJSON(w, http.StatusOK, resultOf(m, `{"tools":[]}`))
	})
	s := connect(t, f.URL(), nil, client.Options{ProtocolVersion: mcp.ProtocolVersion20251125})
	if _, err := s.call(mcp.MethodToolsList, nil); err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"initialized", "202", "tools/list"}; !slices.Equal(order, want) {
		t.Errorf("the server saw %v, want %v", order, want)
	}
}

// A server that never answers notifications/initialized holds its Send
// only as long as the send's context: Send then says what it waited for.
func TestInitializedNeverAcceptedEndsWithTheSendContext(t *testing.T) {
	f := newFake(t)
	f.on(mcp.MethodNotifyInitialized, func(_ http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) { f.hold(r) })
	r := newRig(t, f.URL(), nil)
	r.send(t, request(t, 1, mcp.MethodInitialize, nil))
	r.in.next(t)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := r.tr.Send(ctx, notification(t, mcp.MethodNotifyInitialized, nil))
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "waiting for the server to take notifications/initialized") {
		t.Fatalf("Send = %v", err)
	}
}
