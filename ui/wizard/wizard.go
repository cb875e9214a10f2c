// Package wizard is the screen of one interactive session of a tool (seed
// 002): the server's prompts as widgets, progress, the time left, the
// refusals and the final result. The explorer opens it on a tool of an
// interactive server.
package wizard

import (
	"context"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/prompts"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// Bounds and defaults of a wizard.
const (
	// wizardTimeout is the session timeout asked for in interaction.start
	// (the seed's default, 5 minutes).
	wizardTimeout = 5 * time.Minute
	// maxWizardNotes bounds the notices kept (illegal transitions, answers
	// cancelled in flight, errors); the oldest go first.
	maxWizardNotes = 8
)

// wizardPhase is what a wizard is doing.
type wizardPhase int

const (
	wizStarting  wizardPhase = iota // interaction.start is in flight
	wizAnswering                    // a prompt waits for the user's answer
	wizSending                      // interaction.respond is in flight
	wizWaiting                      // the answer was accepted: the server works on it
	wizEnded                        // completed, cancelled or failed: the end is shown
)

// Wizard is one interactive session of a tool (seed 002), driven by the
// user: the server's prompts as widgets, the progress and the time left,
// the refusals at the widget, the final result. It sits in the explorer,
// which opens it on a tool of an interactive server. The session's events
// come in by a re-arming command; every request runs in a command, so
// Update never blocks.
type Wizard struct {
	d     screen.Host
	st    *look.Styles
	nav   nav.Keys
	keys  wizardKeyMap
	tool  string
	dir   string           // where file prompts start ("" is the working directory)
	clock func() time.Time // now, for the countdown and the date prompts

	it          *client.Interaction
	startCancel context.CancelFunc // ends the interaction.start in flight
	phase       wizardPhase

	widget     prompts.Widget
	widgetErr  string // why the prompt has no widget
	seq        int    // counts widgets, so a late answer concerns the right one
	progress   *prompts.Progress
	countdown  *prompts.Countdown
	ticking    bool               // the countdown's tick is armed
	message    string             // the server's last interaction.continue message
	notes      []string           // notices, oldest first
	respond    context.CancelFunc // ends the interaction.respond in flight
	flight     *screen.SentID     // the id of that interaction.respond, once sent
	answers    int                // answers the server accepted
	cancelNote string             // how interaction.cancel went

	end            mcp.InteractionState // completed, cancelled or error once ended
	endErr         error
	complete       *mcp.InteractionCompleteParams
	out            *look.Outcome // the final result or the error, scrollable
	notInteractive bool          // interaction.start answered -32007: the caller falls back to tools/call

	state      *wizardState // the interaction.getState view, when open
	confirming bool         // esc asked to cancel the session: y confirms, any other key keeps it

	w, h int
}

var _ screen.Screen = (*Wizard)(nil)

// New returns a wizard of tool, not started yet.
func New(d screen.Host, tool string) *Wizard {
	return &Wizard{d: d, st: d.Styles(), nav: d.Nav(), keys: defaultWizardKeys(), tool: tool, clock: time.Now,
		countdown: prompts.NewCountdown(time.Time{}, d.Styles().Dark)}
}

// Title names the tool and the session.
func (w *Wizard) Title() string {
	t := "Wizard · " + w.tool
	if w.state != nil {
		t += " · " + mcp.MethodInteractionGetState
	}
	return t
}

// SetSize gives the wizard its body size.
func (w *Wizard) SetSize(width, h int) {
	w.w, w.h = width, h
	if w.widget != nil {
		w.widget.SetSize(width, w.widgetHeight())
	}
	if w.out != nil {
		w.out.SetSize(width, h)
	}
	if w.state != nil {
		w.state.out.SetSize(width, h)
	}
}

// Update handles a key or any other message: the session's own results
// and events, the countdown's ticks, what the widget waits for.
func (w *Wizard) Update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return w.handleKey(msg)
	case StartedMsg:
		return w.started(msg), false
	case wizardEventMsg:
		return w.event(msg), false
	case wizardRespondedMsg:
		return w.responded(msg), false
	case wizardCancelledMsg:
		w.cancelled(msg)
		return nil, false
	case wizardStateMsg:
		w.stateArrived(msg)
		return nil, false
	case prompts.CountdownTickMsg:
		return w.tick(msg), false
	case tea.BackgroundColorMsg:
		w.countdown.SetDark(msg.IsDark())
		if w.progress != nil {
			w.progress.SetDark(msg.IsDark())
		}
	}
	if w.widget != nil {
		_, cmd := w.widget.Update(msg)
		return cmd, false
	}
	return nil, false
}

// handleKey routes a key by what the wizard shows.
func (w *Wizard) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := w.keys
	switch {
	case w.state != nil:
		if key.Matches(msg, k.StateClose) {
			w.state = nil
		} else if v, ok := nav.Of(msg, w.nav, max(w.h-1, 1)); ok {
			w.state.out.Scroll(v)
		}
		return nil, false
	case w.confirming:
		w.confirming = false
		if key.Matches(msg, k.Confirm) {
			return w.cancelSession(), false
		}
		return nil, false // any other key, esc too, keeps the session
	case key.Matches(msg, k.State):
		return w.getState(), false
	case key.Matches(msg, k.CancelAnswer):
		return w.cancelAnswer(), false
	}
	switch w.phase {
	case wizStarting:
		if key.Matches(msg, k.Cancel) {
			w.startCancel()
			return nil, true
		}
	case wizEnded:
		if key.Matches(msg, k.Close) {
			return nil, true
		}
		if v, ok := nav.Of(msg, w.nav, max(w.h-3, 1)); ok && w.out != nil {
			w.out.Scroll(v)
		}
	case wizAnswering:
		if w.widget != nil {
			return w.widgetKey(msg), false
		}
		if key.Matches(msg, k.Cancel) {
			w.confirming = true
		}
	default: // sending, waiting
		if key.Matches(msg, k.Cancel) {
			w.confirming = true
		}
	}
	return nil, false
}

// widgetKey gives a key to the prompt's widget and acts on what it did:
// an answer that passes the prompt's rules is sent; esc asks whether to
// cancel the session.
func (w *Wizard) widgetKey(msg tea.KeyPressMsg) tea.Cmd {
	act, cmd := w.widget.Update(msg)
	switch act {
	case prompts.ActionSubmit:
		return tea.Batch(cmd, w.submit())
	case prompts.ActionCancel:
		w.confirming = true // the session is the server's: ask first
		return cmd
	}
	return cmd
}

// note keeps a notice, dropping the oldest past maxWizardNotes.
func (w *Wizard) note(s string) {
	w.notes = append(w.notes, look.OneLine(s))
	if len(w.notes) > maxWizardNotes {
		w.notes = w.notes[len(w.notes)-maxWizardNotes:]
	}
}

// sessionState is the session's state as the client sees it (the end
// the wizard shows, once it ended); "" before interaction.start answered.
func (w *Wizard) sessionState() mcp.InteractionState {
	switch {
	case w.phase == wizEnded && w.end != "" && w.it != nil:
		return w.end
	case w.it == nil:
		return ""
	}
	return w.it.State()
}

// Tool is the tool the wizard runs.
func (w *Wizard) Tool() string { return w.tool }

// Started reports whether the server started the session: the tool is
// interactive.
func (w *Wizard) Started() bool { return w.it != nil }

// NotInteractive reports whether the server answered interaction.start
// with -32007 NOT_INTERACTIVE: the caller falls back to tools/call.
func (w *Wizard) NotInteractive() bool { return w.notInteractive }

// Err is why the session ended in error, or nil.
func (w *Wizard) Err() error { return w.endErr }

// SetClock replaces the wizard's clock (time.Now), which drives its
// countdown and its date prompts.
func (w *Wizard) SetClock(now func() time.Time) { w.clock = now }
