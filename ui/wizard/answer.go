package wizard

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// Answering a prompt and cancelling: interaction.respond, its refusal, the
// answer cancelled in flight, interaction.cancel.

// submit sends the widget's answer (it passed the prompt's rules).
func (w *Wizard) submit() tea.Cmd {
	v, err := w.widget.Value()
	if err != nil {
		w.widget.SetRefusal(err, "")
		return nil
	}
	ctx, cancel := context.WithCancel(w.d.Context())
	flight := &screen.SentID{}
	w.respond, w.flight, w.phase = cancel, flight, wizSending
	it, seq := w.it, w.seq
	return func() tea.Msg {
		res, err := it.Respond(ctx, v, client.WithRounds(flight.Round), screen.AskProgress())
		cancel()
		return wizardRespondedMsg{it: it, seq: seq, res: res, err: err}
	}
}

// responded shows how the server took the answer: accepted (wait for
// the next prompt), refused at the widget (answer again), cancelled in
// flight (answer again), or an error by its name.
func (w *Wizard) responded(msg wizardRespondedMsg) tea.Cmd {
	if msg.it != w.it || w.it == nil {
		return nil
	}
	w.respond = nil
	current := msg.seq == w.seq && w.phase != wizEnded
	var cancelled *client.CancelledError
	switch {
	case msg.err != nil && w.it.State().Terminal():
		w.ended(w.it.State(), msg.err)
	case errors.As(msg.err, &cancelled):
		w.note(fmt.Sprintf("the answer was cancelled in flight (%s); answer again", cancelled.ID))
		w.backToWidget(current)
	case msg.err != nil:
		w.note(mcp.MethodInteractionRespond + " failed: " + look.ErrorHeadline(msg.err, mcp.DialectInteraction))
		w.backToWidget(current)
	case !msg.res.Accepted:
		if current && w.widget != nil {
			v := msg.res.Validation
			if v == nil {
				v = &mcp.InteractionValidation{Error: "the server did not accept the answer"}
			}
			w.widget.SetRefusal(refusalError(v.Error), v.Suggestion)
		}
		w.backToWidget(current)
	default:
		w.answers++
		if current && w.phase == wizSending {
			w.phase = wizWaiting
		}
	}
	return nil
}

// backToWidget lets the user answer the current prompt again.
func (w *Wizard) backToWidget(current bool) {
	if current && w.phase == wizSending {
		w.phase = wizAnswering
	}
}

// cancelAnswer cancels the interaction.respond in flight by its id: the
// session stops waiting and tells the server ($/cancel on MCP-Flow,
// notifications/cancelled on MCP) with the user's reason; the prompt can
// be answered again.
func (w *Wizard) cancelAnswer() tea.Cmd {
	if w.respond == nil || w.phase != wizSending {
		w.note("no answer is in flight: nothing to cancel")
		return nil
	}
	id, ok := w.flight.Get()
	s, err := w.d.Session()
	if !ok || err != nil {
		w.respond() // not on the wire yet, or no session: stop waiting
		return nil
	}
	return func() tea.Msg {
		if err := s.Cancel(id, screen.CancelReason); err != nil {
			return screen.ErrorMsg{Err: fmt.Errorf("cancelling %s %s: %w", mcp.MethodInteractionRespond, id, err)}
		}
		return nil
	}
}

// cancelSession sends interaction.cancel: the session is cancelled at
// once on this side and the server's answer is shown when it comes.
func (w *Wizard) cancelSession() tea.Cmd {
	if w.it == nil || w.phase == wizEnded {
		return nil
	}
	if w.respond != nil {
		w.respond()
	}
	it, ctx := w.it, w.d.Context()
	w.ended(mcp.InteractionCancelled, nil)
	w.cancelNote = mcp.MethodInteractionCancel + " sent…"
	return func() tea.Msg {
		return wizardCancelledMsg{it: it, err: it.Cancel(ctx, cancelSessionReason)}
	}
}

// cancelled shows the server's answer to interaction.cancel.
func (w *Wizard) cancelled(msg wizardCancelledMsg) {
	if msg.it != w.it || w.it == nil {
		return
	}
	if msg.err != nil {
		w.cancelNote = mcp.MethodInteractionCancel + " failed: " + look.ErrorHeadline(msg.err, mcp.DialectInteraction)
		return
	}
	w.cancelNote = "the server confirmed: cancelled"
}
