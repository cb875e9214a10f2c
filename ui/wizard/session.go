package wizard

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/prompts"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
)

// cancelSessionReason is the reason sent with interaction.cancel.
const cancelSessionReason = "User cancelled"

// Messages of a wizard's session. Each names the session (or the wizard,
// before there is one) so that a message of another wizard is ignored.
type (
	// StartedMsg carries the answer to interaction.start; the caller
	// of a wizard closed while it started gets it and calls Drop.
	StartedMsg struct {
		w   *Wizard
		it  *client.Interaction
		err error
	}
	// wizardEventMsg carries the session's next event; ok is false once
	// its events are closed.
	wizardEventMsg struct {
		it *client.Interaction
		ev client.InteractionEvent
		ok bool
	}
	// wizardRespondedMsg carries the answer to interaction.respond for
	// the widget seq.
	wizardRespondedMsg struct {
		it  *client.Interaction
		seq int
		res mcp.InteractionRespondResult
		err error
	}
	// wizardCancelledMsg says how interaction.cancel went.
	wizardCancelledMsg struct {
		it  *client.Interaction
		err error
	}
	// wizardStateMsg carries the answer to interaction.getState and the
	// sessionId it was asked with.
	wizardStateMsg struct {
		it  *client.Interaction
		id  string
		res mcp.InteractionStateResult
		err error
	}
)

// Start sends interaction.start for the wizard's tool with no initial
// params and the wizard's timeout. A start the user gave up on while it
// was in flight is cancelled as soon as it answers.
func (w *Wizard) Start() tea.Cmd {
	s, err := w.d.Session()
	if err != nil {
		w.fail(fmt.Errorf("%s was not sent: %w", mcp.MethodInteractionStart, err))
		return nil
	}
	ctx, cancel := context.WithCancel(w.d.Context())
	w.startCancel, w.phase = cancel, wizStarting
	params := mcp.InteractionStartParams{ToolName: w.tool, InitialParams: json.RawMessage(`{}`),
		Timeout: wizardTimeout.Milliseconds()}
	return func() tea.Msg {
		it, err := s.StartInteraction(ctx, params)
		if err == nil && ctx.Err() != nil {
			_ = it.Cancel(context.WithoutCancel(ctx), cancelSessionReason)
		}
		return StartedMsg{w: w, it: it, err: err}
	}
}

// started shows the session, or why it did not start. The server's -32007
// NOT_INTERACTIVE closes the wizard for the caller's tools/call form.
func (w *Wizard) started(msg StartedMsg) tea.Cmd {
	if msg.w != w || w.phase != wizStarting {
		return msg.Drop()
	}
	w.startCancel() // the start is over: release its context
	if msg.err != nil {
		if isNotInteractive(msg.err) {
			w.notInteractive = true
		}
		w.fail(msg.err)
		return nil
	}
	w.it = msg.it
	w.phase = wizWaiting
	return tea.Batch(w.nextEvent(), w.expiry())
}

// Drop cancels a session that started for a wizard the user closed while
// interaction.start was in flight.
func (msg StartedMsg) Drop() tea.Cmd {
	if msg.it == nil || msg.it.State().Terminal() {
		return nil
	}
	it, ctx := msg.it, msg.w.d.Context()
	return func() tea.Msg {
		_ = it.Cancel(ctx, cancelSessionReason)
		return nil
	}
}

// nextEvent waits for the session's next event.
func (w *Wizard) nextEvent() tea.Cmd {
	it := w.it
	return func() tea.Msg {
		ev, ok := <-it.Events()
		return wizardEventMsg{it: it, ev: ev, ok: ok}
	}
}

// event shows one event of the session and waits for the next.
func (w *Wizard) event(msg wizardEventMsg) tea.Cmd {
	if msg.it != w.it || w.it == nil {
		return nil
	}
	if !msg.ok {
		w.settle()
		return nil
	}
	ev := msg.ev
	if ev.Progress != nil {
		w.setProgress(*ev.Progress)
	}
	var cmd tea.Cmd
	switch ev.Kind {
	case client.EventPrompt:
		cmd = w.showPrompt(ev.Prompt)
	case client.EventContinue:
		if ev.Message != "" {
			w.message = ev.Message
		}
		if ev.Prompt != nil {
			cmd = w.showPrompt(ev.Prompt)
		}
	case client.EventComplete:
		w.completed(ev.Complete)
	case client.EventIllegal:
		w.note(fmt.Sprintf("illegal transition %s → %s refused with %s: %s", ev.From, ev.To,
			look.ErrorCode(&jsonrpc.Error{Code: mcp.CodeInvalidStateTransition}, mcp.DialectInteraction), ev.Message))
	case client.EventError:
		w.ended(mcp.InteractionError, ev.Err)
	}
	return tea.Batch(cmd, w.expiry(), w.nextEvent())
}

// setProgress shows the server's latest progress.
func (w *Wizard) setProgress(p mcp.InteractionProgress) {
	if w.progress == nil {
		w.progress = prompts.NewProgress(p, w.d.Styles().Dark)
		return
	}
	w.progress.Set(p)
}

// showPrompt opens the widget of a prompt. The same prompt sent again
// after a refusal (seed 002, "Validation Retry") keeps the widget and the
// answer typed, and shows the server's reason at it.
func (w *Wizard) showPrompt(p *mcp.InteractionPrompt) tea.Cmd {
	if p == nil || w.phase == wizEnded {
		return nil
	}
	if w.widget != nil && samePrompt(w.widget.Prompt(), *p) {
		if w.phase == wizSending && (p.Error != "" || p.Suggestion != "") {
			w.widget.SetRefusal(refusalError(p.Error), p.Suggestion)
		}
		w.phase = wizAnswering
		return nil
	}
	w.seq++
	w.phase, w.widgetErr = wizAnswering, ""
	widget, err := prompts.New(*p, prompts.Options{Dir: w.dir, Now: w.clock, Dark: w.d.Styles().Dark})
	if err != nil {
		w.widget = nil
		w.widgetErr = fmt.Sprintf("this prompt cannot be answered here: %v", err)
		return nil
	}
	w.widget = widget
	widget.SetSize(w.w, w.widgetHeight())
	return nil
}

// samePrompt reports whether a and b are the same question, whatever
// refusal each carries.
func samePrompt(a, b mcp.InteractionPrompt) bool {
	a.Error, a.Suggestion, b.Error, b.Suggestion = "", "", "", ""
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// refusalError is the server's reason as an error; nil for none.
func refusalError(reason string) error {
	if reason == "" {
		return nil
	}
	return errors.New(reason)
}

// isNotInteractive reports whether err is the server's -32007: the tool
// does not run interactively.
func isNotInteractive(err error) bool {
	var rpc *client.RPCError
	return errors.As(err, &rpc) && rpc.Err != nil && rpc.Err.Code == mcp.CodeNotInteractive
}
