package compose

import (
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// composeTickEvery is how often the elapsed time of a waiting request is
// redrawn.
const composeTickEvery = 200 * time.Millisecond

// Messages of the composer.
type (
	// composeAnswerMsg says how a call sent from the composer ended: the
	// result of a request, or err (nil for a notification that went out).
	composeAnswerMsg struct {
		gen    int
		result json.RawMessage
		err    error
		// view is the answer rendered and judged where it arrived, off
		// the Update goroutine (answerRenderer); nil when the sender left
		// it to answered.
		view *answerView
	}
	// composeTickMsg redraws the elapsed time of send gen.
	composeTickMsg struct{ gen int }
)

// pendingCall is a request of the composer in flight: the id the session
// gave it, set from the sending goroutine and read by the renderer.
type pendingCall struct {
	id     atomic.Pointer[jsonrpc.ID]
	listen *listening // set for a subscriptions/listen (listen.go)
}

// setID records the id of the request of a round (client.WithRounds).
func (p *pendingCall) setID(_ int, id jsonrpc.ID) { p.id.Store(&id) }

// requestID is the id of the request, once it is known.
func (p *pendingCall) requestID() (jsonrpc.ID, bool) {
	if id := p.id.Load(); id != nil {
		return *id, true
	}
	return jsonrpc.ID{}, false
}

// composeTick asks for a redraw of send gen.
func composeTick(gen int) tea.Cmd {
	return tea.Tick(composeTickEvery, func(time.Time) tea.Msg { return composeTickMsg{gen: gen} })
}

// send sends the current call on the session: a request waits for its
// answer, a notification is answered as soon as it is written. Without a
// session the answer step says why nothing was sent.
func (c *Composer) send() tea.Cmd {
	call := c.call
	c.gen++
	gen := c.gen
	c.pending, c.injectedID = nil, ""
	if inj := screen.InjectorOf(c.d); inj != nil {
		return c.inject(inj, gen)
	}
	s, err := c.d.Session()
	if err != nil {
		c.sentAt = c.now()
		c.answered(composeAnswerMsg{gen: gen, err: fmt.Errorf("%s was not sent: %w", call.method, err)})
		return nil
	}
	c.picker.history.add(call)
	c.stage, c.sentAt = stageWait, c.now()
	ctx, params := c.d.Context(), call.wireParams()
	if call.notify {
		return func() tea.Msg {
			return composeAnswerMsg{gen: gen, err: s.Notify(ctx, call.method, params)}
		}
	}
	p := &pendingCall{}
	c.pending = p
	if isListen(call.method) {
		return tea.Batch(listenCmd(ctx, s, gen, params, p), composeTick(gen))
	}
	render := c.answerRenderer()
	return tea.Batch(func() tea.Msg {
		res, err := s.Call(ctx, call.method, params, client.WithRounds(p.setID), screen.AskProgress())
		return composeAnswerMsg{gen: gen, result: res, err: err, view: render(res, err)}
	}, composeTick(gen))
}

// cancel cancels the request waiting for its answer; its answer then
// says it was cancelled.
func (c *Composer) cancel() tea.Cmd {
	if c.pending == nil {
		return nil
	}
	id, ok := c.pending.requestID()
	if _, err := c.d.Session(); !ok || err != nil {
		return nil
	}
	return c.d.CancelRequest(id)
}

// answered shows the answer of send msg.gen; an answer of an earlier send
// is dropped.
func (c *Composer) answered(msg composeAnswerMsg) {
	if msg.gen != c.gen {
		return
	}
	elapsed := look.Duration(c.now().Sub(c.sentAt))
	view := msg.view
	if view == nil {
		view = c.answerRenderer()(msg.result, msg.err)
	}
	failure := view.failure
	what := "← result"
	switch {
	case msg.err != nil:
		what = "✗ error"
	case c.call.notify:
		what = "→ notification sent"
	case failure != nil:
		what = "✗ tool failed"
	}
	head := what + " · " + c.call.method
	if c.pending != nil {
		if id, ok := c.pending.requestID(); ok {
			head += " · id " + id.String()
		}
	}
	if c.injectedID != "" {
		head += " · id " + termtext.Line(c.injectedID) + " · injected, kept from the host"
	}
	head += " · " + elapsed
	c.answer, c.heading, c.stage = view.out, head, stageAnswer
}

// renderAnswer draws the heading and the answer, scrollable, in w×h.
func (c *Composer) renderAnswer(w, h int) string {
	paint := c.st.Ink.Good
	if c.answer.Failed {
		paint = c.st.Ink.Error
	}
	return paint.Paint(look.Cell(c.heading, w)) + "\n" + c.answer.Render(w, max(h-1, 0))
}

// renderWaiting draws the request waiting for its answer.
func (c *Composer) renderWaiting(w int) string {
	wait := "sending " + c.call.method + "…"
	if c.injectedID != "" {
		wait = "injected as id " + termtext.Line(c.injectedID) + ": waiting for its answer, which the proxy keeps from the host…"
	}
	if c.pending != nil {
		if id, ok := c.pending.requestID(); ok {
			wait = "waiting for id " + id.String() + "…"
			if l := c.pending.listen; l != nil {
				wait = "listening on subscription " + id.String() + " · " + l.status() + " ·"
			}
		}
	}
	wait += " " + look.Duration(c.now().Sub(c.sentAt))
	return c.st.Ink.Muted.Paint(look.Cell(wait, w)) + "\n" + c.st.Ink.Muted.Paint(look.Cell(screen.CancelKeyName+" cancels the request · esc goes back to the editor", w))
}
