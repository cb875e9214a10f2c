package mcphttp

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// pingStream answers the first standalone GET of f with n pings, then
// holds the stream until the client lets go.
func pingStream(f *fake, n int) {
	var opened atomic.Bool
	f.on(http.MethodGet, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		if opened.Swap(true) {
			http.Error(w, "one stream only", http.StatusMethodNotAllowed)
			return
		}
		write := openSSE(w)
		var b strings.Builder
		for i := range n {
			b.WriteString(event("", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i)))
		}
		write(b.String())
		f.hold(r)
	})
}

// A server that holds every POST of an answer open: at most MaxReplyPosts
// are open at once; an answer that finds no place within the timeout is
// not sent and counted, said in a warning that names the held POSTs, and
// the session goes on: the server took every body.
func TestHeldReplyPostsAreBounded(t *testing.T) {
	const pings = 200
	f := newFake(t)
	pingStream(f, pings)
	var open, most atomic.Int64
	f.on("response", func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		n := open.Add(1)
		defer open.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		f.hold(r)
	})
	s := connect(t, f.URL(), nil, client.Options{Timeout: 500 * time.Millisecond, ProtocolVersion: mcp.ProtocolVersion20251125})
	flowtest.Eventually(t, "the answers without a place counted as unsent", func() bool {
		return s.rig.tr.UnsentAnswers() == pings-MaxReplyPosts
	})
	if n := most.Load(); n > MaxReplyPosts {
		t.Fatalf("%d reply POSTs were open at once, over the bound of %d", n, MaxReplyPosts)
	}
	if _, err := s.call("tools/list", nil); err != nil {
		t.Fatalf("a call after the flood: %v", err)
	}
	warns := s.rig.warn.all()
	if want := "the server holds the POSTs of 16 earlier answers open, and none ended in time"; len(warns) == 0 || !strings.Contains(warns[0], want) {
		t.Fatalf("warnings %q do not say %q", warns, want)
	}
}

// A server that refuses every POST of an answer: the first few failures
// are warnings, the rest a count, and every unsent answer is counted and
// marked in the traffic.
func TestRefusedReplyPostsAreCountedAndWarnedOnce(t *testing.T) {
	const pings = 40
	f := newFake(t)
	pingStream(f, pings)
	f.on("response", func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		http.Error(w, "no thanks", http.StatusInternalServerError)
	})
	s := connect(t, f.URL(), nil, client.Options{Timeout: 5 * time.Second, ProtocolVersion: mcp.ProtocolVersion20251125})
	flowtest.Eventually(t, "every answer's POST refused", func() bool { return s.rig.tr.UnsentAnswers() == pings })
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	warns := s.rig.warn.all()
	if len(warns) != postWarningLimit+1 {
		t.Fatalf("%d warnings, want %d:\n%s", len(warns), postWarningLimit+1, strings.Join(warns, "\n"))
	}
	for _, w := range warns[:postWarningLimit] {
		if !strings.HasPrefix(w, "warning: the answer to id ") || !strings.Contains(w, "HTTP 500") {
			t.Fatalf("warning %q", w)
		}
	}
	want := fmt.Sprintf("warning: %d more answers that could not be sent were not shown", pings-postWarningLimit)
	if got := warns[postWarningLimit]; got != want {
		t.Fatalf("closing warning %q, want %q", got, want)
	}
	marks := s.rig.frames(func(f *capture.Frame) bool {
		return f.Chan.Kind == capture.HTTP && len(f.Fields) == 1 && f.Fields[0].Name == "unsent answer"
	})
	if len(marks) != pings || !strings.HasPrefix(string(marks[0].Raw), "not sent: the answer to id ") {
		t.Fatalf("%d unsent answers marked in the traffic, want %d", len(marks), pings)
	}
}
