package wizard

import (
	"encoding/json"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// Render draws the wizard in w×h: the head (tool, session, state, time
// left, progress, the server's message, notices), then the prompt's
// widget, the end, or the state view.
func (w *Wizard) Render(width, h int) string {
	if h <= 0 {
		return ""
	}
	if w.state != nil {
		return w.state.out.Render(width, h)
	}
	lines := w.headLines(width)
	body := max(h-len(lines), 1)
	switch w.phase {
	case wizStarting:
		lines = append(lines, w.st.Ink.Muted.Paint(mcp.MethodInteractionStart+" sent, waiting for the session…"))
	case wizWaiting:
		what := "the answer was accepted; waiting for the server's next prompt…"
		if w.answers == 0 {
			what = "the session started; waiting for the server's first prompt…"
		}
		lines = append(lines, w.st.Ink.Muted.Paint(what))
	case wizAnswering, wizSending:
		lines = append(lines, w.promptLines(width, body)...)
	case wizEnded:
		lines = append(lines, w.endLines(width, body)...)
	}
	if w.confirming {
		ask := w.st.Ink.Warn.Paint("Cancel the server's session? y cancels it (interaction.cancel), n or esc keeps it.")
		lines = append(lines[:min(len(lines), max(h-1, 0))], ask)
	}
	for i, l := range lines {
		lines[i] = look.FitLine(l, width)
	}
	return strings.Join(lines[:min(len(lines), h)], "\n")
}

// headLines are the lines above the widget or the end.
func (w *Wizard) headLines(width int) []string {
	head := look.OneLine(w.tool)
	if w.it != nil {
		head += " · " + sessionLabel(w.it.ID())
	}
	if st := w.sessionState(); st != "" {
		head += " · " + w.stateTint(st).Paint(look.OneLine(string(st)))
	}
	if w.phase != wizEnded {
		if c := w.countdown.Render(w.clock()); c != "" {
			head += " · " + c
		}
	}
	lines := []string{head}
	if w.progress != nil {
		lines = append(lines, strings.Split(w.progress.Render(width, 2), "\n")...)
	}
	if w.message != "" && w.phase != wizEnded {
		lines = append(lines, w.paintLines(w.st.Ink.Warn, "⚠ "+w.message, width)...)
	}
	for _, n := range w.notes {
		lines = append(lines, w.paintLines(w.st.Ink.Warn, "! "+n, width)...)
	}
	return append(lines, "")
}

// widgetHeight is the height the widget is drawn at.
func (w *Wizard) widgetHeight() int {
	return max(w.h-len(w.headLines(w.w))-1, 1)
}

// promptLines draws the widget (or why there is none) and, while the
// answer is in flight, says so.
func (w *Wizard) promptLines(width, h int) []string {
	var foot []string
	if w.phase == wizSending {
		foot = []string{w.st.Ink.Muted.Paint(mcp.MethodInteractionRespond + " in flight… " + screen.CancelKeyName + " cancels it, esc cancels the session")}
	}
	if w.widget == nil {
		lines := w.paintLines(w.st.Ink.Error, w.widgetErr, width)
		return append(append(lines, w.st.Ink.Muted.Paint("esc cancels the session")), foot...)
	}
	lines := strings.Split(w.widget.Render(width, max(h-len(foot), 1)), "\n")
	return append(lines, foot...)
}

// endLines draws how the session ended: the completion (success, summary,
// the result as JSON), the cancellation, or the error by its name.
func (w *Wizard) endLines(width, h int) []string {
	var lines []string
	switch {
	case w.end == mcp.InteractionCompleted:
		lines = append(lines, w.completionLine())
		if w.complete != nil && w.complete.Summary != "" {
			lines = append(lines, look.OneLine(w.complete.Summary))
		}
		lines = append(lines, "", w.st.Ink.Muted.Paint("── "+mcp.MethodInteractionComplete+" result ──"))
	case w.end == mcp.InteractionCancelled:
		lines = append(lines, w.st.Ink.Warn.Paint("the session was cancelled"), w.st.Ink.Muted.Paint(w.cancelNote))
	case w.out != nil:
		lines = append(lines, w.st.Ink.Error.Paint("the session ended in error"))
	default:
		lines = append(lines, w.st.Ink.Error.Paint("the session ended"))
	}
	if w.out != nil {
		lines = append(lines, strings.Split(w.out.Render(width, max(h-len(lines), 1)), "\n")...)
	}
	return lines
}

// completionLine says whether the tool reports success, from the result's
// "success" member (seed 002, interaction.complete).
func (w *Wizard) completionLine() string {
	var r struct {
		Success *bool `json:"success"`
	}
	if w.complete != nil {
		_ = json.Unmarshal(w.complete.Result, &r)
	}
	switch {
	case r.Success == nil:
		return w.st.Ink.Good.Paint("✓ completed")
	case *r.Success:
		return w.st.Ink.Good.Paint("✓ completed · success")
	}
	return w.st.Ink.Warn.Paint("✗ completed · success: false")
}

// stateTint colours a state: the ends by how they went.
func (w *Wizard) stateTint(st mcp.InteractionState) look.Tint {
	switch st {
	case mcp.InteractionCompleted:
		return w.st.Ink.Good
	case mcp.InteractionCancelled:
		return w.st.Ink.Warn
	case mcp.InteractionError:
		return w.st.Ink.Error
	}
	return look.Tint{}
}

// paintLines breaks text into lines of at most width cells, painted.
func (w *Wizard) paintLines(t look.Tint, text string, width int) []string {
	lines := strings.Split(ansi.Wordwrap(look.OneLine(text), max(width, 1), " "), "\n")
	for i, l := range lines {
		lines[i] = t.Paint(l)
	}
	return lines
}

// sessionLabel shows a sessionId shortened; a stateless server's token as
// the session id it carries.
func sessionLabel(id string) string {
	if tok, ok := mcp.DecodeSessionToken(id); ok {
		return "token: sessionId " + shortID(tok.SessionID) + " (signed)"
	}
	return "sessionId " + shortID(id)
}

// shortID cuts a long id to its start and end.
func shortID(id string) string {
	r := []rune(look.OneLine(id))
	if len(r) <= 24 {
		return string(r)
	}
	return string(r[:12]) + "…" + string(r[len(r)-8:])
}
