package wizard

import (
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/prompts"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
)

// The session's state view, its end, and its countdown.

// getState asks the server for the session's state and opens its view.
func (w *Wizard) getState() tea.Cmd {
	if w.it == nil {
		w.note("the session has not started: there is no state to ask for")
		return nil
	}
	it, ctx := w.it, w.d.Context()
	id := it.ID()
	w.state = newWizardState(id, w.st)
	w.state.out.SetSize(w.w, w.h)
	return func() tea.Msg {
		res, err := it.GetState(ctx)
		return wizardStateMsg{it: it, id: id, res: res, err: err}
	}
}

// stateArrived fills the state view.
func (w *Wizard) stateArrived(msg wizardStateMsg) {
	if msg.it != w.it || w.state == nil || w.state.id != msg.id {
		return
	}
	w.state.arrived(msg.res, msg.err, w.st)
	w.state.out.SetSize(w.w, w.h)
}

// completed shows interaction.complete: success, summary and the result.
func (w *Wizard) completed(c *mcp.InteractionCompleteParams) {
	w.ended(mcp.InteractionCompleted, nil)
	w.complete = c
	var res json.RawMessage
	if c != nil {
		res = c.Result
	}
	if len(res) == 0 {
		res = json.RawMessage("null")
	}
	w.out = look.NewOutcome(mcp.MethodInteractionComplete, res, nil, mcp.DialectInteraction, w.st)
	w.out.SetSize(w.w, w.h)
}

// ended moves the wizard to its end: the session's final state and why
// (named in seed 002's codes). A session already ended keeps its end; one
// that ended in error without a reason takes the first reason told.
func (w *Wizard) ended(st mcp.InteractionState, err error) {
	switch {
	case w.phase != wizEnded:
		w.phase, w.end, w.widget, w.ticking = wizEnded, st, nil, false
	case st != mcp.InteractionError || w.end != st || w.endErr != nil:
		return
	}
	if err != nil {
		w.endErr = err
		w.out = look.NewOutcome("", nil, err, mcp.DialectInteraction, w.st)
		w.out.SetSize(w.w, w.h)
	}
}

// fail ends a wizard whose session never started.
func (w *Wizard) fail(err error) {
	w.ended(mcp.InteractionError, err)
}

// settle ends the wizard when the session's events close without an end
// it showed (the session closed, or cancelled from elsewhere).
func (w *Wizard) settle() {
	if w.phase == wizEnded {
		return
	}
	st := w.it.State()
	if !st.Terminal() {
		st = mcp.InteractionError
	}
	w.ended(st, nil)
}

// expiry follows the session's announced expiry and keeps the countdown
// ticking while there is time left.
func (w *Wizard) expiry() tea.Cmd {
	if w.it == nil || w.phase == wizEnded {
		return nil
	}
	if at := w.it.ExpiresAt(); !at.Equal(w.countdown.ExpiresAt()) {
		w.countdown.SetExpiresAt(at)
	}
	if w.ticking || w.countdown.Remaining(w.clock()) <= 0 {
		return nil
	}
	w.ticking = true
	return w.countdown.Tick()
}

// tick redraws the countdown once a second while the session lives.
func (w *Wizard) tick(msg prompts.CountdownTickMsg) tea.Cmd {
	if w.phase == wizEnded {
		w.ticking = false
		return nil
	}
	cmd := w.countdown.Update(msg)
	if cmd == nil && w.ticking && w.countdown.Remaining(msg.Time) <= 0 {
		w.ticking = false
	}
	return cmd
}
