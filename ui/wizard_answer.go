package ui

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
)

// Answering a prompt and cancelling: interaction.respond, its refusal, the
// answer cancelled in flight, interaction.cancel.

// submit sends the widget's answer (it passed the prompt's rules).
func (w *wizard) submit() tea.Cmd {
	v, err := w.widget.Value()
	if err != nil {
		w.widget.SetRefusal(err, "")
		return nil
	}
	ctx, cancel := context.WithCancel(w.d.context())
	w.respond, w.phase = cancel, wizSending
	it, seq := w.it, w.seq
	return func() tea.Msg {
		res, err := it.Respond(ctx, v)
		cancel()
		return wizardRespondedMsg{it: it, seq: seq, res: res, err: err}
	}
}

// responded shows how the server took the answer: accepted (wait for
// the next prompt), refused at the widget (answer again), cancelled in
// flight (answer again), or an error by its name.
func (w *wizard) responded(msg wizardRespondedMsg) tea.Cmd {
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
		w.note(proto.MethodInteractionRespond + " failed: " + errorHeadline(msg.err, proto.DialectInteraction))
		w.backToWidget(current)
	case !msg.res.Accepted:
		if current && w.widget != nil {
			v := msg.res.Validation
			if v == nil {
				v = &proto.InteractionValidation{Error: "the server did not accept the answer"}
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
func (w *wizard) backToWidget(current bool) {
	if current && w.phase == wizSending {
		w.phase = wizAnswering
	}
}

// cancelAnswer cancels the interaction.respond in flight: the client
// stops waiting and tells the server ($/cancel on MCP-Flow,
// notifications/cancelled on MCP); the prompt can be answered again.
func (w *wizard) cancelAnswer() {
	if w.respond == nil || w.phase != wizSending {
		w.note("no answer is in flight: nothing to cancel")
		return
	}
	w.respond()
}

// cancelSession sends interaction.cancel: the session is cancelled at
// once on this side and the server's answer is shown when it comes.
func (w *wizard) cancelSession() tea.Cmd {
	if w.it == nil || w.phase == wizEnded {
		return nil
	}
	if w.respond != nil {
		w.respond()
	}
	it, ctx := w.it, w.d.context()
	w.ended(proto.InteractionCancelled, nil)
	w.cancelNote = proto.MethodInteractionCancel + " sent…"
	return func() tea.Msg {
		return wizardCancelledMsg{it: it, err: it.Cancel(ctx, cancelSessionReason)}
	}
}

// cancelled shows the server's answer to interaction.cancel.
func (w *wizard) cancelled(msg wizardCancelledMsg) {
	if msg.it != w.it || w.it == nil {
		return
	}
	if msg.err != nil {
		w.cancelNote = proto.MethodInteractionCancel + " failed: " + errorHeadline(msg.err, proto.DialectInteraction)
		return
	}
	w.cancelNote = "the server confirmed: cancelled"
}
