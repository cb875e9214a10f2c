package client

import (
	"encoding/json"
	"regexp"
	"runtime"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// wire is the script side of an interactive server: it takes what the
// client sends in any interleaving (acks go out on their own goroutines)
// and ends the script on a hang or a lost connection.
type wire struct {
	s     *fakeServer
	stash []*jsonrpc.Message
	ids   int64
}

// take returns the first message the client sent that matches.
func (w *wire) take(what string, match func(*jsonrpc.Message) bool) *jsonrpc.Message {
	for k, m := range w.stash {
		if match(m) {
			w.stash = append(w.stash[:k], w.stash[k+1:]...)
			return m
		}
	}
	for {
		m, ok := w.s.next()
		if !ok {
			w.s.t.Errorf("fake server: the connection ended while waiting for %s", what)
			runtime.Goexit()
		}
		if match(m) {
			return m
		}
		w.stash = append(w.stash, m)
	}
}

// request waits for the client's request of method.
func (w *wire) request(method string) *jsonrpc.Message {
	return w.take(method, func(m *jsonrpc.Message) bool { return m.Kind() == jsonrpc.KindRequest && m.Method == method })
}

// ask sends a server → client request and returns the client's answer.
func (w *wire) ask(method string, params any) *jsonrpc.Message {
	w.ids++
	id := jsonrpc.IntID(1000 + w.ids)
	w.s.request(id, method, params)
	return w.take("the answer to "+method, func(m *jsonrpc.Message) bool {
		return m.ID != nil && m.Method == "" && m.ID.Key() == id.Key()
	})
}

// wantResult checks an answer's result byte for byte.
func (w *wire) wantResult(m *jsonrpc.Message, want string) {
	w.s.t.Helper()
	if m.Error != nil || string(m.Result) != want {
		w.s.t.Errorf("answer %s error %v, want result %s", m.Result, m.Error, want)
	}
}

// wantError checks an answer's error code.
func (w *wire) wantError(m *jsonrpc.Message, code int) {
	w.s.t.Helper()
	if m.Error == nil || m.Error.Code != code {
		w.s.t.Errorf("answer %s error %+v, want code %d", m.Result, m.Error, code)
	}
}

// wantParams checks a request's params against a regular expression of
// the whole text.
func (w *wire) wantParams(m *jsonrpc.Message, pattern string) {
	w.s.t.Helper()
	if !regexp.MustCompile(`^` + pattern + `$`).Match(m.Params) {
		w.s.t.Errorf("%s params %s, want %s", m.Method, m.Params, pattern)
	}
}

// interactiveServer connects a session to a legacy server whose
// initialize result carries caps, then runs body; done closes when the
// script ends.
func interactiveServer(t *testing.T, caps map[string]any, opts Options, body func(w *wire)) (*Session, *fakeTransport, <-chan struct{}) {
	t.Helper()
	if caps == nil {
		caps = map[string]any{"tools": map[string]any{}}
	}
	done := make(chan struct{})
	s, ft := connect(t, func(srv *fakeServer) {
		defer close(done)
		for m, ok := srv.next(); ok && m.Method != mcp.MethodNotifyInitialized; m, ok = srv.next() {
			if m.Method != mcp.MethodInitialize {
				srv.fail(*m.ID, mcp.CodeMethodNotFound, "method not found")
				continue
			}
			srv.result(*m.ID, map[string]any{"protocolVersion": mcp.LatestLegacy, "capabilities": caps,
				"serverInfo": map[string]any{"name": "wizard", "version": "1"}})
		}
		body(&wire{s: srv})
	}, opts)
	return s, ft, done
}

// waitDone waits for a script to end.
func waitDone(t *testing.T, done <-chan struct{}) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(hangGuard):
		t.Fatalf("the server script did not finish within %s", hangGuard)
	}
}

// nextEvent returns the interaction's next event.
func nextEvent(t *testing.T, i *Interaction) InteractionEvent {
	t.Helper()
	select {
	case ev, ok := <-i.Events():
		if !ok {
			t.Fatal("events closed, want one more")
		}
		return ev
	case <-time.After(hangGuard):
		t.Fatalf("no event arrived within %s", hangGuard)
	}
	return InteractionEvent{}
}

// wantClosed checks that the events are closed with nothing left.
func wantClosed(t *testing.T, i *Interaction) {
	t.Helper()
	select {
	case ev, ok := <-i.Events():
		if ok {
			t.Fatalf("event %v %+v after the end, want the channel closed", ev.Kind, ev)
		}
	case <-time.After(hangGuard):
		t.Fatalf("events were not closed within %s", hangGuard)
	}
}

// wantPrompt checks that ev is a prompt with message.
func wantPrompt(t *testing.T, ev InteractionEvent, kind InteractionEventKind, message string) {
	t.Helper()
	if ev.Kind != kind || ev.Prompt == nil || ev.Prompt.Message != message {
		t.Fatalf("event %v %+v, want %v with prompt %q", ev.Kind, ev, kind, message)
	}
}

// raw is a JSON value literal.
func raw(s string) json.RawMessage { return json.RawMessage(s) }
