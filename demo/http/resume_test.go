package demohttp

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// misbehave returns the body of a misbehave tools/call.
func misbehave(t *testing.T, id int, mode string, more map[string]any) string {
	t.Helper()
	args := map[string]any{"mode": mode}
	for k, v := range more {
		args[k] = v
	}
	return toolCall(t, id, "misbehave", args)
}

// cut_sse ends the POST's stream after an event with an id and a retry
// field, before the answer; a GET with that Last-Event-ID gets the answer,
// once, and the stream ends. Resuming again from the priming event's id
// replays the cut event and the answer, each once.
func TestCutSSEResumesWithLastEventID(t *testing.T) {
	for _, abrupt := range []bool{false, true} {
		t.Run(fmt.Sprint("abrupt=", abrupt), func(t *testing.T) {
			ts := startServer(t, Options{})
			sid := ts.initialize()
			resp := ts.post(PathMCP, misbehave(t, 4, demo.ModeCutSSE, map[string]any{"abrupt": abrupt}), map[string]string{headerSession: sid})
			es := readEvents(t, resp.Body)
			prime, cut := es.must(t), es.must(t)
			if prime.id != "2-0" || cut.id != "2-1" || cut.retry != "1000" || cut.message(t).Method != mcp.MethodNotifyMessage {
				t.Fatalf("before the cut: %+v %+v", prime, cut)
			}
			_, err := es.next()
			if want := io.EOF; abrupt {
				if err == nil || errors.Is(err, io.EOF) {
					t.Errorf("an abrupt cut read as %v", err)
				}
			} else if !errors.Is(err, want) {
				t.Errorf("after the cut: %v", err)
			}
			get := func(last string) []event {
				r := ts.do(http.MethodGet, PathMCP, "", map[string]string{headerSession: sid, "Accept": mediaSSE, headerLastEventID: last})
				if r.StatusCode != http.StatusOK {
					t.Fatalf("resume from %s: %s", last, r.Status)
				}
				return readEvents(t, r.Body).end(t)
			}
			got := get(cut.id)
			if len(got) != 2 || got[0].id != "2-1" || got[1].id != "2-2" {
				t.Fatalf("resumed from %s: %+v", cut.id, got)
			}
			if m := got[1].message(t); m.ID == nil || m.ID.String() != "4" || !strings.Contains(string(m.Result), "misbehaved") {
				t.Errorf("answer %s", m.Raw)
			}
			got = get(prime.id)
			if len(got) != 3 || got[1].id != "2-1" || got[2].id != "2-2" {
				t.Errorf("resumed from %s: %+v", prime.id, got)
			}
		})
	}
}

// A Last-Event-ID that is garbage, names no stream of the session, is
// ahead of the stream, or is older than the replay buffer, is 400.
func TestResumeRefusals(t *testing.T) {
	ts := startServer(t, Options{ReplayEvents: 2})
	sid := ts.initialize()
	resp := ts.post(PathMCP, toolCall(t, 2, "analyze", map[string]any{"steps": 3, "interval_ms": 0}), map[string]string{headerSession: sid})
	if n := len(readEvents(t, resp.Body).end(t)); n != 5 {
		t.Fatalf("analyze: %d events", n)
	}
	for last, want := range map[string]int{
		"x": http.StatusBadRequest, "9-1": http.StatusBadRequest, "2-99": http.StatusBadRequest,
		"2-1": http.StatusBadRequest, "2-2": http.StatusOK, "2-4": http.StatusOK,
	} {
		r := ts.do(http.MethodGet, PathMCP, "", map[string]string{headerSession: sid, "Accept": mediaSSE, headerLastEventID: last})
		if r.StatusCode != want {
			t.Errorf("Last-Event-ID %s: %s, want %d", last, r.Status, want)
		}
	}
}

// A resume while the POST's connection is still open takes the stream
// over: the answer comes once, on the GET, and the POST's response ends.
func TestResumeTakesOver(t *testing.T) {
	ts := startServer(t, Options{})
	release, _ := ts.gate("gate")
	sid := ts.initialize()
	resp := ts.post(PathMCP, toolCall(t, 3, "gate", nil), map[string]string{headerSession: sid})
	es := readEvents(t, resp.Body)
	es.must(t) // priming
	open := es.must(t)
	get := ts.do(http.MethodGet, PathMCP, "", map[string]string{headerSession: sid, "Accept": mediaSSE, headerLastEventID: open.id})
	if get.StatusCode != http.StatusOK {
		t.Fatalf("resume: %s", get.Status)
	}
	ges := readEvents(t, get.Body)
	if prime := ges.must(t); prime.id != open.id {
		t.Fatalf("resumed priming %+v", prime)
	}
	close(release)
	rest := ges.end(t)
	if len(rest) != 1 || rest[0].message(t).ID.String() != "3" {
		t.Errorf("on the GET: %+v", rest)
	}
	if left := es.end(t); len(left) != 0 {
		t.Errorf("on the POST after the takeover: %+v", left)
	}
}
