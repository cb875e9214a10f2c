package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/asktest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/compose"
	"github.com/mcpscope/mcpscope/ui/question"
)

// TestQuestionQueueOverAnOverlay: questions asked while the composer is
// open show one at a time over it, the next when the first is answered,
// and the composer comes back afterwards.
func TestQuestionQueueOverAnOverlay(t *testing.T) {
	m, r, b := questionModel(t, nil, 100, 30)
	r.Press(":")
	if _, ok := m.overlay.(*compose.Composer); !ok {
		t.Fatalf(": opened %T", m.overlay)
	}
	first := ask(t, r, b, context.Background(), mcp.MethodElicitationCreate, screentest.ElicitFormParams)
	second := ask(t, r, b, context.Background(), mcp.MethodSamplingCreateMessage, screentest.SamplingParams)
	if title := m.overlay.Title(); !strings.Contains(title, "elicitation · form") || !strings.Contains(title, "1 more waiting") {
		t.Errorf("title %q", title)
	}
	r.Press("ctrl+d")
	asktest.WantResult(t, asktest.Answered(t, first), `{"action":"decline"}`)
	asktest.NotAnswered(t, second)
	if title := m.overlay.Title(); !strings.HasPrefix(title, "Question · sampling") || strings.Contains(title, "waiting") {
		t.Errorf("after the first answer: title %q", title)
	}
	r.Press("esc")
	asktest.WantRPCError(t, asktest.Answered(t, second), question.CodeUserRejected, question.MsgSamplingCancelled)
	if m.overlay == nil || !strings.HasPrefix(m.overlay.Title(), "Compose") {
		t.Fatalf("the composer did not come back: %v", m.overlay)
	}
	r.Press("esc")
	if m.overlay != nil {
		t.Errorf("esc in the composer's picker must close it (and the empty question host)")
	}
}

// TestOverlayOpensUnderQuestions: an overlay opened while a question is on
// screen (by an asynchronous message) waits underneath it.
func TestOverlayOpensUnderQuestions(t *testing.T) {
	m, r, b := questionModel(t, nil, 100, 30)
	ch := ask(t, r, b, context.Background(), mcp.MethodElicitationCreate, screentest.ElicitURLParams)
	m.openComposer()
	if !strings.HasPrefix(m.overlay.Title(), "Question") {
		t.Fatalf("the composer replaced the question: %q", m.overlay.Title())
	}
	r.Press("y")
	asktest.WantResult(t, asktest.Answered(t, ch), `{"action":"accept"}`)
	if m.overlay == nil || !strings.HasPrefix(m.overlay.Title(), "Compose") {
		t.Errorf("the composer is not shown after the answer: %v", m.overlay)
	}
}
