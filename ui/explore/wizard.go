package explore

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/wizard"
)

// The explorer's hooks for interactive sessions (seed 002): on a server
// that runs them, enter on a tool starts a wizard and f opens the plain
// tools/call form; on any other server nothing changes.

// openTool acts on a tool: a wizard on an interactive server (unless the
// server refused one for this tool, or its tool list says the tool is
// plain), the tools/call form otherwise.
func (x *Explorer) openTool(e entry) tea.Cmd {
	if run := x.runOf(&e, listDeclares(x.lists[tabTools].items)); run == toolTry || run == toolWizard {
		return x.startWizard(e)
	}
	return x.openToolForm(e)
}

// openToolForm opens the tools/call form of a tool; on a dialect with no
// lists, a tool without a schema gets the JSON editor (named_tool.go).
func (x *Explorer) openToolForm(e entry) tea.Cmd {
	x.target, x.tmpl, x.note, x.info = e, nil, "", ""
	if e.bad != "" {
		return nil
	}
	if len(e.schema) == 0 && x.unlistedSession() != nil {
		return x.openNamedForm()
	}
	return x.openForm(e.schema, "tools/call "+e.name)
}

// startWizard starts an interactive session of a tool.
func (x *Explorer) startWizard(e entry) tea.Cmd {
	x.target, x.tmpl, x.note, x.info = e, nil, "", ""
	if e.bad != "" {
		return nil
	}
	x.wiz = wizard.New(x.d, e.name)
	x.wiz.SetSize(x.w, x.h)
	x.mode = modeWizard
	return x.wiz.Start()
}

// updateWizard gives a message to the open wizard; the explorer's own
// messages (lists, answers, the discovery) are not its and are left to the
// explorer (handled false).
func (x *Explorer) updateWizard(msg tea.Msg) (cmd tea.Cmd, handled bool) {
	switch msg.(type) {
	case exploreListMsg, exploreAnswerMsg, DiscoveredMsg, waitingTickMsg:
		return nil, false
	}
	cmd, closed := x.wiz.Update(msg)
	if x.wiz.Started() && !x.disc.interactiveTools[x.wiz.Tool()] {
		x.markInteractive(x.wiz.Tool())
		x.markWizards()
	}
	if closed || x.wiz.NotInteractive() {
		return tea.Batch(cmd, x.wizardClosed()), true
	}
	return cmd, true
}

// wizardClosed returns to the list, or to the tools/call form when the
// server answered that the tool is not interactive (-32007).
func (x *Explorer) wizardClosed() tea.Cmd {
	wiz := x.wiz
	x.wiz = nil
	x.backToList()
	if !wiz.NotInteractive() {
		return nil
	}
	x.markNotInteractive(wiz.Tool())
	x.markWizards()
	cmd := x.openToolForm(x.target)
	x.info = wiz.Tool() + " runs as a plain tool call (the server answered " + look.ErrorHeadline(wiz.Err(), mcp.DialectInteraction) + ")"
	return cmd
}

// markWizards tags what is known of each tool on an interactive server:
// a wizard once the server started one or its tool list says it is one,
// tools/call only once it refused one or its tool list says the tool is
// plain, nothing before either (enter then tries a wizard).
func (x *Explorer) markWizards() {
	l := &x.lists[tabTools]
	declares := listDeclares(l.items)
	for i := range l.items {
		l.items[i].run = x.runOf(&l.items[i], declares)
	}
}

// runOf is how enter runs tool e; declares says whether its list marks
// the server's wizards.
func (x *Explorer) runOf(e *entry, declares bool) toolRun {
	switch {
	case x.wizardFor(e.name) && (x.disc.interactiveTools[e.name] || e.declared == declaredWizard):
		return toolWizard
	case x.wizardFor(e.name) && !e.declaredPlainIn(declares):
		return toolTry
	case x.wizardFor(e.name):
		return toolListed
	case x.interactive():
		return toolCallOnly
	}
	return toolPlain
}
