package demohttp

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// notification_flood's lines all come on the call's stream, numbered in
// order, before its result, through a backlog far smaller than the flood:
// the flood waits for the client instead of piling up.
func TestFloodThroughSmallBacklog(t *testing.T) {
	ts := startServer(t, Options{Backlog: 4096, ReplayEvents: 8})
	sid := ts.initialize()
	const count = 5000
	resp := ts.post(PathMCP, misbehave(t, 2, demo.ModeNotificationFlood, map[string]any{"count": count}), map[string]string{headerSession: sid})
	es := readEvents(t, resp.Body)
	es.must(t) // priming
	for i := 1; i <= count; i++ {
		m := es.message(t)
		var p mcp.LoggingMessageParams
		if err := json.Unmarshal(m.Params, &p); err != nil || string(p.Data) != fmt.Sprint(i) {
			t.Fatalf("line %d: %s", i, m.Raw)
		}
	}
	if m := es.message(t); m.ID == nil || m.Result == nil {
		t.Errorf("after the flood: %s", m.Raw)
	}
}

// Past MaxSessions initialize is 503; past MaxStreams unanswered requests
// a request is 429.
func TestSessionAndStreamBounds(t *testing.T) {
	ts := startServer(t, Options{MaxSessions: 1, MaxStreams: 1})
	release, _ := ts.gate("gate")
	defer close(release)
	sid := ts.initialize()
	resp := ts.post(PathMCP, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, nil)
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("second session: %s", resp.Status)
	}
	first := ts.post(PathMCP, toolCall(t, 2, "gate", nil), map[string]string{headerSession: sid})
	readEvents(t, first.Body).message(t) // the gate is open: the call is in flight
	if r := ts.post(PathMCP, toolCall(t, 3, "echo", map[string]any{"message": "x"}), map[string]string{headerSession: sid}); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("second stream: %s", r.Status)
	}
	if r := ts.post(PathMCP, toolCall(t, 2, "echo", map[string]any{"message": "x"}), map[string]string{headerSession: sid}); r.StatusCode != http.StatusBadRequest {
		t.Errorf("an id in flight: %s", r.Status)
	}
}

// A session nobody uses for SessionIdle ends (its timer's function, run
// by hand); one serving a request does not.
func TestSessionIdle(t *testing.T) {
	ts := startServer(t, Options{})
	s := ts.h.newSession(mcp.LatestLegacy)
	if !ts.h.sessions.add(s.id, s) {
		t.Fatal("no room for a session")
	}
	sid := s.id
	s.begin()
	s.idleOut()
	if ts.h.Sessions() != 1 {
		t.Fatal("a busy session idled out")
	}
	s.done()
	s.idleOut()
	if resp := ts.post(PathMCP, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, map[string]string{headerSession: sid}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("after idling out: %s", resp.Status)
	}
}
