package mcphttp

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
)

// A tools/call stream sends MaxReplyPosts pings, holds the POSTs of their
// answers until the call is over, and needs the roots/list answer to end
// the call: a handler's answer never waits behind the held ping answers.
func TestHandlerAnswerPassesHeldPingAnswers(t *testing.T) {
	f := newFake(t)
	gotRoots, toolDone := make(chan struct{}), make(chan struct{})
	held := make(chan struct{}, MaxReplyPosts)
	f.on("response", func(w http.ResponseWriter, r *http.Request, m *proto.Message) {
		if m.ID.Key() == proto.StringID("roots").Key() {
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
	f.on(proto.MethodToolsCall, func(w http.ResponseWriter, r *http.Request, m *proto.Message) {
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
	s := connect(t, f.URL(), nil, client.Options{Timeout: 5 * time.Second, ProtocolVersion: proto.ProtocolVersion20251125,
		Roots: []proto.Root{{URI: "file:///a"}}})
	if _, err := s.call(proto.MethodToolsCall, map[string]any{"name": "x"}); err != nil {
		t.Fatalf("tools/call: %v", err)
	}
}
