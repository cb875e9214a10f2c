package explore

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
)

// Render draws the explorer in w×h: the tab bar, then the current list
// with its filter and state, the form, the call in flight or the answer.
func (x *Explorer) Render(w, h int) string {
	if h <= 0 {
		return ""
	}
	switch x.mode {
	case modeWizard:
		return x.wiz.Render(w, h)
	case modeBench:
		return x.bench.Render(w, h)
	}
	lines := []string{x.renderTabs(w)}
	if x.mode == modeSkill {
		lines = append(lines, x.renderSkill(w, h-1)...)
		return strings.Join(lines[:min(len(lines), h)], "\n")
	}
	body := max(h-2, 0)
	switch x.mode {
	case modeList:
		lines = append(lines, x.listHead(w))
		lines = append(lines, x.withPreview(w, body)...)
	case modeForm:
		head := x.st.Ink.Muted.Paint(look.OneLine(x.target.desc))
		if x.info != "" {
			head = x.st.Ink.Muted.Paint(look.OneLine(x.info))
		}
		if x.note != "" {
			head = x.st.Ink.Warn.Paint(look.OneLine(x.note))
		}
		lines = append(lines, head)
		lines = append(lines, strings.Split(x.form.Render(w, x.formHeight()), "\n")...)
		if x.tmpl != nil {
			lines = append(lines, x.uriPreview())
		}
	case modeStreamPick:
		lines = append(lines, x.renderStreamPick(w, h-1)...)
	case modeInsist:
		lines = append(lines, x.renderInsist(w)...)
	case modeNamePrompt:
		lines = append(lines, x.renderNamePrompt(w)...)
	case modeCalling:
		lines = append(lines, x.callHead("calling…"), "")
		lines = append(lines, x.waitingView(w)...)
	case modeOutcome:
		state := x.st.Ink.Good.Paint("answer")
		switch {
		case x.cancelled:
			state = x.st.Ink.Warn.Paint("cancelled")
		case x.out.Failed:
			state = x.st.Ink.Error.Paint("failed")
		}
		lines = append(lines, x.callHead(state))
		if x.saving != nil {
			body--
		}
		lines = append(lines, strings.Split(x.out.Render(w, body), "\n")...)
		if x.saving != nil {
			lines = append(lines, x.saving.View(w))
		}
	}
	return strings.Join(lines[:min(len(lines), h)], "\n")
}

// renderTabs draws one tab per list with its count: … while loading, –
// when not advertised, ! after a failure.
func (x *Explorer) renderTabs(w int) string {
	var b strings.Builder
	for t := range tabCount {
		if !x.tabShown(t) {
			continue
		}
		l := &x.lists[t]
		count := ""
		switch l.state {
		case listLoading:
			count = " …"
		case listUnadvertised:
			count = " –"
		case listNone:
			count = " –"
			if len(l.items) > 0 {
				count = fmt.Sprintf(" %d", len(l.items))
			}
		case listLoaded:
			count = fmt.Sprintf(" %d", len(l.items))
		}
		if l.err != nil {
			count += "!"
		}
		label := fmt.Sprintf(" %d %s%s ", t+1, exploreLists[t].name, count)
		if t == x.tab {
			b.WriteString(x.st.TabActive.Render("[" + label[1:len(label)-1] + "]"))
		} else {
			b.WriteString(x.st.Tab.Render(label))
		}
	}
	if legend := x.badgeLegend(); legend != "" && look.TextWidth(legend)+ansi.StringWidth(b.String()) <= w {
		b.WriteString(x.st.Ink.Muted.Paint(legend))
	}
	return look.FitLine(b.String(), w)
}

// badgeLegend explains the badges the tab bar shows: – for a list the
// server does not offer, ! for one that failed (its tab says why).
func (x *Explorer) badgeLegend() string {
	var parts []string
	seen := [2]bool{}
	for t := range tabCount {
		if !x.tabShown(t) {
			continue
		}
		l := &x.lists[t]
		if (l.state == listUnadvertised || l.state == listNone && len(l.items) == 0) && !seen[0] {
			seen[0] = true
			parts = append(parts, "– not offered by the server")
		}
		if l.err != nil && !seen[1] {
			seen[1] = true
			parts = append(parts, "! the list failed: its tab says why")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "  " + strings.Join(parts, " · ")
}

// listHead is the filter input while it is open, else the list's state.
func (x *Explorer) listHead(w int) string {
	if x.filtering {
		return x.input.View()
	}
	l := x.list()
	text := look.OneLine(l.summary(x.d.Dialect()))
	if l.err != nil {
		return x.st.Ink.Error.Paint(text)
	}
	if l.filter == "" && l.state == listLoaded {
		text += " · / filters"
	}
	if x.tab == tabTools && x.interactive() && listDeclares(x.lists[tabTools].items) {
		text += " · interactive server: enter starts a [wizard] tool's wizard, the others' tools/call form"
	} else if x.tab == tabTools && x.interactive() {
		text += " · interactive server: enter tries a wizard, f the tools/call form"
	} else if in := x.disc; x.tab == tabTools && in.err != nil {
		text += " · " + mcp.MethodCapabilities + " probe refused (" + look.ErrorHeadline(in.err, x.d.Dialect()) + "): tools/call forms only"
	}
	return x.st.Ink.Muted.Paint(text)
}

// callHead names the request shown: method, subject and state, then its
// id and, once answered, how long the answer took.
func (x *Explorer) callHead(state string) string {
	head := strings.TrimSpace(x.method+" "+look.OneLine(x.subject)) + " · " + state
	if id, ok := x.inflight.Get(); ok {
		head += " · id " + look.OneLine(id.String())
	}
	if x.elapsed > 0 {
		head += " · " + look.Duration(x.elapsed)
	}
	return head
}

// uriPreview shows the URI the template form expands to right now.
func (x *Explorer) uriPreview() string {
	v, err := x.form.Value()
	if err != nil {
		return x.st.Ink.Muted.Paint("URI: " + look.OneLine(x.target.uri))
	}
	return x.st.Ink.Muted.Paint("URI: ") + look.OneLine(x.tmpl.Expand(stringValues(v)))
}
