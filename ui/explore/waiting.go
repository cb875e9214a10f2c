package explore

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// waitingTick is how often the waiting view redraws its clock.
const waitingTick = 250 * time.Millisecond

// waitingTickMsg redraws the waiting view of call gen.
type waitingTickMsg struct{ gen int }

// tickWaiting asks for the next redraw of the waiting view of call gen.
func tickWaiting(gen int) tea.Cmd {
	return tea.Tick(waitingTick, func(time.Time) tea.Msg { return waitingTickMsg{gen: gen} })
}

// ticked re-arms the clock while call gen is still waited for.
func (x *Explorer) ticked(msg waitingTickMsg) tea.Cmd {
	if msg.gen != x.callGen || x.mode != modeCalling {
		return nil
	}
	return tickWaiting(msg.gen)
}

// waitingView is what the explorer shows while its request is in flight:
// the time it has run, the server's latest progress report as a bar, and
// the log lines linked to the request.
func (x *Explorer) waitingView(w int) []string {
	elapsed := time.Since(x.sentAt).Round(100 * time.Millisecond)
	var st screen.ProgressState
	known := false
	if id, ok := x.inflight.Get(); ok {
		st, known = x.d.Progress(id)
	}
	lines := []string{x.st.Ink.Muted.Paint("elapsed " + look.Duration(elapsed))}
	if line := x.task.line(); line != "" && x.mode == modeCalling {
		lines = append(lines, x.st.Ink.Accent.Paint(look.OneLine(line)))
	}
	switch {
	case !known || st.Reports == 0:
		lines = append(lines, x.st.Ink.Muted.Paint("no progress reported yet"))
	default:
		track, count := look.Track(st.Progress, st.Total, st.Reports, max(min(w/3, 40), 10))
		text := count
		if st.Message != "" {
			text += " · " + termtext.Line(st.Message)
		}
		lines = append(lines, x.st.Ink.Good.Paint(track)+" "+look.OneLine(text))
	}
	if known && st.Cancelled {
		lines = append(lines, x.st.Ink.Warn.Paint("✕ cancelled: waiting for the server's answer"))
	}
	if known && len(st.Logs) > 0 {
		lines = append(lines, "", x.st.Ink.Accent.Paint("── log ──"))
		for _, l := range st.Logs {
			lines = append(lines, look.OneLine(l))
		}
	}
	cancel := screen.CancelKeyName
	return append(lines, "", x.st.Ink.Muted.Paint(strings.Join([]string{
		"Waiting for the answer.", cancel + " cancels the request;", "w shows its frames;",
		x.backHint()}, " ")))
}

// backHint says what esc does to the call in flight: a plain request's
// answer is dropped; a task is given up, with tasks/cancel.
func (x *Explorer) backHint() string {
	if x.task.active() {
		return "esc returns to the list and cancels the task."
	}
	return "esc returns to the list and drops the answer."
}
