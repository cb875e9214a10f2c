package question

import (
	"encoding/json"
	"fmt"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// questionView is the body of one kind of question.
type questionView interface {
	// kind names the question for the title ("elicitation · form").
	kind() string
	setSize(w, h int)
	// update handles a message; a non-nil answer says the user answered.
	update(msg tea.Msg) (tea.Cmd, *questionAnswer)
	render(w, h int) string
	help() help.KeyMap
}

// openQuestion is a question on screen or waiting its turn.
type openQuestion struct {
	q    *question
	view questionView
}

// questionHost is the overlay of the server's questions. It opens over
// whatever overlay was open (the explorer that called the tool that asks,
// usually) and shows one question at a time, the next when the first is
// answered; the overlay underneath keeps getting its messages and comes
// back once the questions are done.
type questionHost struct {
	d     screen.Host
	under screen.Screen // nil when the questions opened over the panes
	queue []*openQuestion
	w, h  int
}

var _ screen.Screen = (*questionHost)(nil)

// Title names the question, what it answers and how many wait.
func (h *questionHost) Title() string {
	if len(h.queue) == 0 {
		if h.under != nil {
			return h.under.Title()
		}
		return ""
	}
	cur := h.queue[0]
	t := fmt.Sprintf("Question · %s · %s", cur.view.kind(), cur.q.originText())
	if n := len(h.queue); n > 1 {
		t += fmt.Sprintf(" · %d more waiting", n-1)
	}
	return t
}

// SetSize sizes the question on screen and the overlay underneath.
func (h *questionHost) SetSize(w, hh int) {
	h.w, h.h = w, hh
	if len(h.queue) > 0 {
		h.queue[0].view.setSize(w, hh)
	}
	if h.under != nil {
		h.under.SetSize(w, hh)
	}
}

// Update gives keys to the question on screen and other messages to it and
// to the overlay underneath. With no question left it is the overlay
// underneath.
func (h *questionHost) Update(msg tea.Msg) (tea.Cmd, bool) {
	if len(h.queue) == 0 {
		if h.under == nil {
			return nil, true
		}
		return h.under.Update(msg)
	}
	var cmds []tea.Cmd
	if _, key := msg.(tea.KeyPressMsg); !key && h.under != nil {
		cmd, closed := h.under.Update(msg)
		cmds = append(cmds, cmd)
		if closed {
			h.under = nil
		}
	}
	cur := h.queue[0]
	cmd, ans := cur.view.update(msg)
	cmds = append(cmds, cmd)
	if ans != nil {
		cur.q.answer(*ans)
		h.d.Note(answerNote(cur, ans))
		cmds = append(cmds, h.pop())
	}
	return tea.Batch(cmds...), len(h.queue) == 0 && h.under == nil
}

// pop drops the question on screen and sizes the next.
func (h *questionHost) pop() tea.Cmd {
	h.queue = h.queue[1:]
	if len(h.queue) == 0 {
		if h.under != nil {
			h.under.SetSize(h.w, h.h)
		}
		return nil
	}
	h.queue[0].view.setSize(h.w, h.h)
	return focusCmd(h.queue[0].view)
}

// Render draws the question on screen, or the overlay underneath.
func (h *questionHost) Render(w, hh int) string {
	if len(h.queue) > 0 {
		return h.queue[0].view.render(w, hh)
	}
	if h.under != nil {
		return h.under.Render(w, hh)
	}
	return ""
}

// Help lists the keys of the question on screen.
func (h *questionHost) Help() help.KeyMap {
	if len(h.queue) > 0 {
		return h.queue[0].view.help()
	}
	if h.under != nil {
		return h.under.Help()
	}
	return keyhelp.Map{}
}

// remove drops q if it is still open and reports whether it was on screen.
func (h *questionHost) remove(q *question) (found, onScreen bool) {
	for i, o := range h.queue {
		if o.q == q {
			h.queue = append(h.queue[:i], h.queue[i+1:]...)
			if i == 0 && len(h.queue) > 0 {
				h.queue[0].view.setSize(h.w, h.h)
			}
			return true, i == 0
		}
	}
	return false, false
}

// focuser is a view whose widgets need a command when it comes on screen.
type focuser interface{ focus() tea.Cmd }

// focusCmd focuses the widgets of a view coming on screen.
func focusCmd(v questionView) tea.Cmd {
	if f, ok := v.(focuser); ok {
		return f.focus()
	}
	return nil
}

// answerNote says in the status bar what went back to the server.
func answerNote(o *openQuestion, a *questionAnswer) string {
	what := "answered"
	var rpc *jsonrpc.Error
	switch r := a.result.(type) {
	case elicitResult:
		what = "answered " + r.Action
	case nil:
		if e, ok := a.err.(*jsonrpc.Error); ok {
			rpc = e
		}
	}
	if rpc != nil {
		what = fmt.Sprintf("refused with error %d %s", rpc.Code, rpc.Message)
	}
	return fmt.Sprintf("%s %s (%s)", o.q.method, what, o.q.originText())
}

// Ask opens the question of msg over open, the screen open now (nil for
// none): shown is false when it cannot be shown (the server withdrew it,
// or its params make no screen: err says why, and the server is answered
// with -32602). Otherwise the returned screen is the host of the
// questions, open underneath them.
func Ask(d screen.Host, open screen.Screen, msg AskedMsg) (host screen.Screen, cmd tea.Cmd, shown bool, err error) {
	q := msg.q
	if q.ctx.Err() != nil {
		d.Note(q.method + " was withdrawn before it could be shown")
		return open, nil, false, nil
	}
	view, err := newQuestionView(q, d.Styles())
	if err != nil {
		q.answer(questionAnswer{err: &jsonrpc.Error{Code: mcp.CodeInvalidParams, Message: err.Error()}})
		return open, nil, false, fmt.Errorf("the server's %s cannot be shown: %w", q.method, err)
	}
	h, ok := open.(*questionHost)
	if !ok {
		h = &questionHost{d: d, under: open}
	}
	h.queue = append(h.queue, &openQuestion{q: q, view: view})
	cmds := []tea.Cmd{watchQuestion(q)}
	if len(h.queue) == 1 {
		cmds = append(cmds, focusCmd(view))
	}
	return h, tea.Batch(cmds...), true, nil
}

// Ended closes a question the server stopped waiting for, with a note.
// It returns the screen open afterwards: nil when the host of the
// questions closed with nothing underneath.
func Ended(open screen.Screen, msg EndedMsg) (screen.Screen, tea.Cmd) {
	q := msg.q
	if q.sent {
		return open, nil
	}
	q.sent = true
	h, ok := open.(*questionHost)
	if !ok {
		return open, nil
	}
	found, onScreen := h.remove(q)
	if !found {
		return open, nil
	}
	h.d.Note(fmt.Sprintf("the server stopped waiting for the %s (%s): it was closed unanswered", q.method, q.originText()))
	if len(h.queue) == 0 && h.under == nil {
		return nil, nil
	}
	if onScreen && len(h.queue) > 0 {
		return open, focusCmd(h.queue[0].view)
	}
	return open, nil
}

// OpenUnder puts o under the questions when open is the host of questions
// still waiting, and reports whether it did: o shows once they are
// answered.
func OpenUnder(open, o screen.Screen) bool {
	h, ok := open.(*questionHost)
	if !ok || len(h.queue) == 0 {
		return false
	}
	h.under = o
	return true
}

// Waiting is how many questions open holds: 0 when it is not the host of
// the questions.
func Waiting(open screen.Screen) int {
	h, ok := open.(*questionHost)
	if !ok {
		return 0
	}
	return len(h.queue)
}

// newQuestionView builds the view of a question from its params.
func newQuestionView(q *question, st *look.Styles) (questionView, error) {
	switch q.method {
	case mcp.MethodElicitationCreate:
		return newElicitView(q.params, st)
	case mcp.MethodSamplingCreateMessage:
		return newSamplingView(q.params, st)
	}
	return nil, fmt.Errorf("mcpscope has no screen for %s", q.method)
}

// decodeQuestionParams reads the params of a question; absent params read as {}.
func decodeQuestionParams(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("the params do not decode: %w", err)
	}
	return nil
}
