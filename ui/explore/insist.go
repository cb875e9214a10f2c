package explore

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// The explorer's guard for a tool whose x-mcp-header annotations are
// invalid (2026-07-28 over Streamable HTTP), which a conforming client
// does not call: its row is tagged, its preview says why, and enter or f
// on it first shows the reason and asks; enter again insists, and the
// call goes out without its Mcp-Param headers.

// headerTag tags the row of a tool whose x-mcp-header annotations are
// invalid.
const headerTag = "⚠ x-mcp-header"

// markHeaders records, for each tool, why the session's transport found
// its x-mcp-header annotations invalid ("" when they are not).
func (x *Explorer) markHeaders() {
	s, err := x.d.Session()
	if err != nil {
		return
	}
	l := &x.lists[tabTools]
	for i := range l.items {
		e := &l.items[i]
		e.headers = ""
		if bad := s.InvalidToolHeaders(e.name); bad != nil {
			e.headers = bad.Reason.Error()
		}
	}
}

// guardTool runs then on a tool (its form, or its wizard), unless its
// x-mcp-header annotations are invalid: then it shows why and asks first
// (modeInsist).
func (x *Explorer) guardTool(e entry, then func(entry) tea.Cmd) tea.Cmd {
	if e.headers == "" || e.bad != "" {
		return then(e)
	}
	x.target, x.mode, x.insist = e, modeInsist, then
	return nil
}

// insistKey answers the question: enter insists (the session lets the
// tool's calls go out) and goes on where the user was going; esc goes
// back to the list.
func (x *Explorer) insistKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, x.keys.Back):
		x.backToList()
	case key.Matches(msg, x.keys.Insist):
		then := x.insist
		x.mode, x.insist = modeList, nil
		if s, err := x.d.Session(); err == nil {
			s.InsistOnTool(x.target.name)
		}
		return then(x.target)
	default:
		return screen.NotAKey(msg)
	}
	return nil
}

// renderInsist draws the reason and the question, wrapped to w.
func (x *Explorer) renderInsist(w int) []string {
	e := &x.target
	var b strings.Builder
	b.WriteString(x.st.Ink.Warn.Paint(headerTag+" · "+termtext.Line(e.name)+" declares invalid x-mcp-header annotations:") + "\n")
	b.WriteString(termtext.Line(e.headers) + "\n\n")
	b.WriteString(x.st.Ink.Muted.Paint("A conforming 2026-07-28 client does not call this tool (the revision drops it from tools/list). "+
		"Called anyway, it goes out without its Mcp-Param headers.") + "\n\n")
	b.WriteString(x.st.Ink.Accent.Paint("enter calls it anyway · esc goes back"))
	return strings.Split(ansi.Wrap(b.String(), max(w, 1), " ,"), "\n")
}

// headerWarning is the preview's line on a tool whose annotations are
// invalid, or "".
func (x *Explorer) headerWarning(e *entry) string {
	if e.headers == "" {
		return ""
	}
	return x.st.Ink.Warn.Paint(headerTag+" invalid: "+termtext.Line(e.headers)+"; enter asks before calling it") + "\n"
}

// detailTint is the tint of a row's detail: a warning for a destructive
// tool or one whose x-mcp-header annotations are invalid, an error for an
// item that does not decode.
func detailTint(e *entry, st *look.Styles) look.Tint {
	switch {
	case e.bad != "":
		return st.Ink.Error
	case e.headers != "" || strings.Contains(e.detail(), "destructive"):
		return st.Ink.Warn
	}
	return st.Ink.Muted
}
