package mcphttp

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// slowCall answers tools/call with an SSE stream that says nothing; the
// channel tells when the client let go of it.
func slowCall(f *fake) <-chan struct{} {
	return released(f, mcp.MethodToolsCall, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		openSSE(w)(": working\n\n")
		f.hold(r)
	})
}

// In the 2026-07-28 revision a request is cancelled by closing its answer
// stream; no notification goes out.
func TestCancelModernRequestClosesItsStream(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	ended := slowCall(f)
	// A grace past the test's waits: only the cancel can close the stream.
	r := newRig(t, f.URL(), func(c *Config) { c.CancelGrace = guard.Run })
	call := request(t, 5, mcp.MethodToolsCall, modernParams(map[string]any{"name": "slow"}))
	r.send(t, call)
	f.await(1, "tools/call", posted(mcp.MethodToolsCall))
	r.cancel(t, *call.ID, "user pressed Esc", true)
	awaitEnd(t, ended, "the answer stream")
	r.send(t, request(t, 6, mcp.MethodPing, modernParams(nil)))
	if m := r.in.next(t); m.ID.Key() != jsonrpc.IntID(6).Key() {
		t.Fatalf("delivered %s; the cancelled request must get nothing", m.Raw)
	}
	if n := len(f.requests(posted(mcp.MethodNotifyCancelled))); n != 0 {
		t.Errorf("%d notifications/cancelled in the modern era", n)
	}
	r.frame(t, "the cancel note", func(f *capture.Frame) bool {
		return f.Dir == capture.Out && strings.Contains(string(f.Raw), "closed the answer stream to cancel tools/call (id 5): user pressed Esc")
	})
}

// In a session of an earlier revision, cancelling sends
// notifications/cancelled and closes the stream after CancelGrace.
func TestCancelSessionRequestNotifiesThenCloses(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	ended := slowCall(f)
	r := newRig(t, f.URL(), func(c *Config) { c.CancelGrace = 50 * time.Millisecond })
	r.handshake(t)
	call := request(t, 5, mcp.MethodToolsCall, map[string]any{"name": "slow"})
	r.send(t, call)
	f.await(1, "tools/call", posted(mcp.MethodToolsCall))
	r.cancel(t, *call.ID, "took too long", false)
	note := f.await(1, "notifications/cancelled", posted(mcp.MethodNotifyCancelled))[0]
	var params struct {
		RequestID json.RawMessage `json:"requestId"`
		Reason    string          `json:"reason"`
	}
	if err := json.Unmarshal(note.Msg.Params, &params); err != nil || string(params.RequestID) != "5" || params.Reason != "took too long" {
		t.Errorf("cancelled params %s (%v)", note.Msg.Params, err)
	}
	if note.Header.Get(headerSession) != "s-1" {
		t.Errorf("cancelled sent in session %q", note.Header.Get(headerSession))
	}
	awaitEnd(t, ended, "the answer stream after CancelGrace")
}

// Through the engine, a call that runs out of time is cancelled by the
// transport's own means: in a session, notifications/cancelled.
func TestEngineTimeoutCancelsThroughTheTransport(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	ended := slowCall(f)
	s := connect(t, f.URL(), func(c *Config) { c.CancelGrace = 10 * time.Millisecond },
		client.Options{ProtocolVersion: mcp.ProtocolVersion20251125, Timeout: 200 * time.Millisecond})
	_, err := s.call(mcp.MethodToolsCall, map[string]any{"name": "slow"})
	if _, ok := err.(*client.TimeoutError); !ok {
		t.Fatalf("err = %v (%T)", err, err)
	}
	f.await(1, "notifications/cancelled", posted(mcp.MethodNotifyCancelled))
	awaitEnd(t, ended, "the answer stream")
}

// The stream of a cancelled request that the server then closes is not
// resumed: nothing more is expected on it.
func TestCancelledRequestsStreamIsNotResumed(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	cancelled := make(chan struct{})
	f.on(mcp.MethodToolsCall, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		openSSE(w)("id: c1\nretry: 1\ndata:\n\n")
		select {
		case <-cancelled:
		case <-r.Context().Done():
		}
	})
	f.on(mcp.MethodNotifyCancelled, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		w.WriteHeader(http.StatusAccepted)
		close(cancelled)
	})
	r := newRig(t, f.URL(), func(c *Config) { c.CancelGrace = 300 * time.Millisecond })
	r.handshake(t)
	call := request(t, 5, mcp.MethodToolsCall, map[string]any{"name": "slow"})
	r.send(t, call)
	f.await(1, "tools/call", posted(mcp.MethodToolsCall))
	r.cancel(t, *call.ID, "enough", false)
	flowtest.Eventually(t, "the cancelled exchange ends", func() bool {
		r.tr.mu.Lock()
		defer r.tr.mu.Unlock()
		return len(r.tr.exchanges) == 0
	})
	if gets := f.requests(func(s seen) bool { return s.Method == http.MethodGet && s.Header.Get(headerLastID) != "" }); len(gets) != 0 {
		t.Errorf("the cancelled request's stream was resumed %d times", len(gets))
	}
	for _, w := range r.warn.all() {
		if strings.Contains(w, "resuming") {
			t.Errorf("warning %q", w)
		}
	}
}

// A notification handed to Send just before Close reaches the server:
// Close waits, within CloseTimeout, for the POSTs of notifications and
// responses under way, in the legacy transport and in Streamable HTTP
// without a session, where no DELETE goes out first. (Without the wait,
// most of the rounds lose their notification.)
func TestCloseLetsANotificationUnderWayArrive(t *testing.T) {
	noLeaks(t)
	for _, c := range []struct {
		name  string
		start func(t *testing.T) (*fake, string, func(*Config))
	}{
		{"legacy", func(t *testing.T) (*fake, string, func(*Config)) {
			l := newLegacyFake(t, func(string) string { return "/message" })
			return l.fake, l.srv.URL + "/sse", legacyMode
		}},
		{"streamable", func(t *testing.T) (*fake, string, func(*Config)) {
			f := newFake(t)
			return f, f.URL(), nil
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for round := range 20 {
				f, url, mode := c.start(t)
				r := newRig(t, url, func(cfg *Config) {
					if mode != nil {
						mode(cfg)
					}
					cfg.CloseTimeout = hangGuard
				})
				r.send(t, notification(t, mcp.MethodNotifyCancelled, map[string]any{"requestId": round}))
				if err := r.tr.Close(); err != nil {
					t.Fatalf("Close: %v", err)
				}
				if n := len(f.requests(posted(mcp.MethodNotifyCancelled))); n != 1 {
					t.Fatalf("round %d: the server got %d notifications/cancelled, want the one sent before Close", round, n)
				}
			}
		})
	}
}

// The server/discover probe left unanswered when the session fell back to
// initialize is forgotten: its POST and answer stream are let go while the
// session runs on, and nothing is sent about it.
func TestForgottenProbeLetsItsPostGo(t *testing.T) {
	f := newFake(t)
	ended := released(f, mcp.MethodDiscover, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		openSSE(w)
		f.hold(r)
	})
	s := connect(t, f.URL(), nil, client.Options{Timeout: 300 * time.Millisecond})
	awaitEnd(t, ended, "the forgotten probe's POST")
	if _, err := s.call(mcp.MethodPing, nil); err != nil {
		t.Fatalf("ping after the fallback: %v", err)
	}
	if n := len(f.requests(posted(mcp.MethodNotifyCancelled))); n != 0 {
		t.Fatalf("%d notifications/cancelled sent for the forgotten probe", n)
	}
}

// cancel gives up on the request with id as the engine does
// (client.Session): one that carried the 2026-07-28 _meta is cancelled by
// closing its answer stream while it is open; any other with
// notifications/cancelled, the transport told first.
func (r *rig) cancel(t *testing.T, id jsonrpc.ID, reason string, modern bool) {
	t.Helper()
	if modern && r.tr.AbortRequest(id, reason) {
		return
	}
	r.tr.CancelNotified(id)
	r.send(t, notification(t, mcp.MethodNotifyCancelled, mcp.CancelledNotificationParams{RequestID: id, Reason: reason}))
}
