package ui

import (
	"context"
	"encoding/json"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/asktest"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/question"
)

// handled is what the bridge answered the session with.
type handled = asktest.Answer

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
	ch := asktest.Send(ctx, b, method, params)
	r.Until("the question is open", func() bool { return openQuestions(r.m) > before })
	return ch
}

// rawJSON is s as a raw JSON value.
func rawJSON(s string) json.RawMessage { return json.RawMessage(s) }
