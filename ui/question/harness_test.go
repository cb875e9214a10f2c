package question

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// testModel opens the server's questions as the root model does: Ask over
// the open screen, Ended when the server stops waiting, keys and other
// messages to the open screen.
type testModel struct {
	host *screentest.Host
	open screen.Screen // nil: nothing open
	err  string        // the last error, as the status line shows it
	w, h int
}

// update handles one message, as the root does for its overlay.
func (m *testModel) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case AskedMsg:
		o, cmd, shown, err := Ask(m.host, m.open, msg)
		if err != nil {
			m.err = err.Error()
		}
		if !shown {
			return nil
		}
		m.open = o
		o.SetSize(m.w, m.h)
		return cmd
	case EndedMsg:
		o, cmd := Ended(m.open, msg)
		m.open = o
		return cmd
	}
	if m.open == nil {
		return nil
	}
	cmd, closed := m.open.Update(msg)
	if closed {
		m.open = nil
	}
	return cmd
}

// view is the open screen's title over its body.
func (m *testModel) view() string {
	if m.open == nil {
		return ""
	}
	return m.open.Title() + "\n" + m.open.Render(m.w, m.h)
}

// note is the last note in the status line.
func (m *testModel) note() string {
	if len(m.host.Notes) == 0 {
		return ""
	}
	return m.host.Notes[len(m.host.Notes)-1]
}

// runner runs a test model's commands as the Bubble Tea runtime would.
type runner struct {
	*screentest.Runner
	m *testModel
}

// newTestModel is a model sized w×h with a bridge whose questions reach
// it through a runner.
func newTestModel(t *testing.T, w, h int) (*testModel, *runner, *Bridge) {
	t.Helper()
	m := &testModel{host: screentest.NewHost(), w: w, h: h}
	r := &runner{Runner: screentest.NewRunner(t, m.update, m.view), m: m}
	b := NewBridge([]mcp.Root{{URI: "file:///srv/a", Name: "a"}})
	b.SetSend(func(msg tea.Msg) {
		select {
		case r.Msgs <- msg:
		case <-r.Stop:
		}
	})
	return m, r, b
}

// handled is what the bridge answered the session with.
type handled struct {
	result string // the result as JSON, "" with an error
	err    error
}

// ask sends a question through the bridge, as the session would from its
// own goroutine, and waits until the model holds it.
func ask(t *testing.T, r *runner, b *Bridge, ctx context.Context, method, params string) <-chan handled {
	t.Helper()
	m := r.m
	before := Waiting(m.open)
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
	r.Until("the question is open", func() bool { return Waiting(m.open) > before })
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
