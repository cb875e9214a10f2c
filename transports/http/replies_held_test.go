package mcphttp

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// A tools/call stream sends MaxReplyPosts pings, holds the POSTs of their
// answers until the call is over, and needs the roots/list answer to end
// the call: a handler's answer never waits behind the held ping answers.
func TestHandlerAnswerPassesHeldPingAnswers(t *testing.T) {
	f := newFake(t)
	gotRoots, toolDone := make(chan struct{}), make(chan struct{})
	held := make(chan struct{}, MaxReplyPosts)
	f.on("response", func(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
		if m.ID.Key() == jsonrpc.StringID("roots").Key() {
			close(gotRoots)
			w.WriteHeader(http.StatusAccepted)
			return
		}
		held <- struct{}{}
		select {
		case <-toolDone:
		case <-r.Context().Done():
			return
		}
		w.WriteHeader(http.StatusAccepted)
	})
	f.on(mcp.MethodToolsCall, func(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
		write := openSSE(w)
		var b strings.Builder
		for i := range MaxReplyPosts {
			b.WriteString(event("", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i)))
		}
		write(b.String())
		for range MaxReplyPosts {
			select {
			case <-held:
			case <-r.Context().Done():
				return
			}
		}
		write(event("", `{"jsonrpc":"2.0","id":"roots","method":"roots/list"}`))
		select {
		case <-gotRoots:
		case <-r.Context().Done():
			return
		}
		close(toolDone)
		write(event("", resultOf(m, `{"content":[]}`)))
	})
	s := connect(t, f.URL(), nil, client.Options{Timeout: 5 * time.Second, ProtocolVersion: mcp.ProtocolVersion20251125,
		Roots: []mcp.Root{{URI: "file:///a"}}})
	if _, err := s.call(mcp.MethodToolsCall, map[string]any{"name": "x"}); err != nil {
		t.Fatalf("tools/call: %v", err)
	}
}

// A server that refuses every POST of an answer and of a notification:
// once five refused answers were warned about, a refused notification is
// still warned about on a line of its own, not hidden behind them.
func TestRefusedNotificationWarnedAfterRefusedAnswers(t *testing.T) {
	const pings = 12
	f := newFake(t)
	pingStream(f, pings)
	f.on("response", func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		http.Error(w, "no thanks", http.StatusInternalServerError)
	})
	f.on(mcp.MethodNotifyRootsListChanged, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		http.Error(w, "not this either", http.StatusInternalServerError)
	})
	s := connect(t, f.URL(), nil, client.Options{Timeout: 5 * time.Second, ProtocolVersion: mcp.ProtocolVersion20251125})
	flowtest.Eventually(t, "every answer's POST refused", func() bool { return s.rig.tr.UnsentAnswers() == pings })
	n, err := jsonrpc.NewNotification(mcp.MethodNotifyRootsListChanged, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	if err := s.rig.tr.Send(ctx, n); err != nil {
		t.Fatalf("sending %s: %v", n.Method, err)
	}
	flowtest.Eventually(t, "a warning about the refused notification", func() bool {
		for _, w := range s.rig.warn.all() {
			if strings.Contains(w, mcp.MethodNotifyRootsListChanged) && strings.Contains(w, "HTTP 500") {
				return true
			}
		}
		return false
	})
}
