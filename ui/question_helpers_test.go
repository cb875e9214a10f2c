package ui

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/question"
)

// handled is what the bridge answered the session with.
type handled struct {
	result string // the result as JSON, "" with an error
	err    error
}

// questionModel is a model of st (a fresh store when nil) with a bridge
// whose questions reach the model through a cmdRunner, sized w×h.
func questionModel(t *testing.T, st *capture.Store, w, h int) (*Model, *cmdRunner, *question.Bridge) {
	t.Helper()
	if st == nil {
		st = capture.NewStore(capture.Config{})
	}
	m := newTestModel(t, st, w, h)
	r := newRunner(t, m)
	b := question.NewBridge([]mcp.Root{{URI: "file:///srv/a", Name: "a"}})
	b.SetSend(func(msg tea.Msg) {
		select {
		case r.Msgs <- msg:
		case <-r.Stop:
		}
	})
	m.cfg.Questions = b
	return m, r, b
}

// openQuestions is how many questions the model holds.
func openQuestions(m *Model) int { return question.Waiting(m.overlay) }

// ask sends a question through the bridge, as the session would from its
// own goroutine, and waits until the model holds it.
func ask(t *testing.T, r *cmdRunner, b *question.Bridge, ctx context.Context, method, params string) <-chan handled {
	t.Helper()
	before := openQuestions(r.m)
	ch := make(chan handled, 1)
	go func() {
		res, err := b.HandleServerRequest(ctx, method, json.RawMessage(params))
		h := handled{err: err}
		if err == nil {
			raw, merr := json.Marshal(res)
			h.result, h.err = string(raw), merr
		}
		ch <- h
	}()
	r.Until("the question is open", func() bool { return openQuestions(r.m) > before })
	return ch
}

// answered waits for the bridge's answer; the timeout is a hang guard.
func answered(t *testing.T, ch <-chan handled) handled {
	t.Helper()
	select {
	case h := <-ch:
		return h
	case <-time.After(flowtest.HangGuard):
		t.Fatalf("the question was never answered within %s", flowtest.HangGuard)
	}
	return handled{}
}

// notAnswered checks that nothing went back to the server yet.
func notAnswered(t *testing.T, ch <-chan handled) {
	t.Helper()
	select {
	case h := <-ch:
		t.Fatalf("the question was answered: %+v", h)
	default:
	}
}

// wantResult checks an answer's result JSON.
func wantResult(t *testing.T, h handled, want string) {
	t.Helper()
	if h.err != nil || h.result != want {
		t.Errorf("answer %s (err %v)\nwant   %s", h.result, h.err, want)
	}
}

// wantRPCError checks that the answer is the JSON-RPC error code/message.
func wantRPCError(t *testing.T, h handled, code int, message string) {
	t.Helper()
	var e *jsonrpc.Error
	if !errors.As(h.err, &e) || e.Code != code || e.Message != message {
		t.Errorf("answer %s, err %v; want error %d %q", h.result, h.err, code, message)
	}
}

// rawJSON is s as a raw JSON value.
func rawJSON(s string) json.RawMessage { return json.RawMessage(s) }

// mustJSON marshals v.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}
