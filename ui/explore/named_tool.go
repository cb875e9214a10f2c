package explore

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/plural"
	"github.com/mcpscope/mcpscope/ui/look"
)

// The explorer on a dialect with no lists: seed 004's tools-http and
// tools-ws carry tools/call alone, so no list can be asked for. The Tools
// list then holds the tools this connection has called, and n calls a
// tool by the name the user types, with its arguments as a JSON object.

// maxToolName bounds a typed tool name.
const maxToolName = 256

// namePrompt is the input of the name of a tool to call (modeNamePrompt).
type namePrompt struct {
	input textinput.Model
}

// unlistedSession returns the live session when its dialect has no lists
// (no handshake: tools-http, tools-ws), else nil.
func (x *Explorer) unlistedSession() *client.Session {
	s, err := x.d.Session()
	if err != nil || !s.HandshakeFree() {
		return nil
	}
	return s
}

// fillUnlisted shows, on a session whose dialect has no lists, why each
// list is empty and, as the Tools list, the tools the connection has
// called; it reports false, doing nothing, on any other session.
func (x *Explorer) fillUnlisted() bool {
	s := x.unlistedSession()
	if s == nil {
		return false
	}
	transport := s.LinkState().Transport
	for t := range tabCount {
		l := &x.lists[t]
		l.state, l.err = listNone, nil
		l.none = fmt.Sprintf("%s carries tools/call only: it has no %s list", transport, strings.ToLower(exploreLists[t].name))
	}
	tools := &x.lists[tabTools]
	names := s.CalledTools()
	tools.none = transport + " has no tools list: n calls a tool by its name, with JSON arguments"
	if len(names) > 0 {
		tools.none += fmt.Sprintf(" · listed: the %s this connection called", plural.Count(len(names), "tool", "tools"))
	}
	if len(names) == len(tools.items) {
		return true // the same tools: the selection stays
	}
	items := make([]entry, len(names))
	for i, n := range names {
		items[i] = entry{tab: tabTools, name: n, desc: "called on this connection; " + transport + " says nothing of its arguments"}
	}
	tools.setItems(items)
	return true
}

// openNamePrompt asks for the name of a tool to call.
func (x *Explorer) openNamePrompt() tea.Cmd {
	in := textinput.New()
	in.SetStyles(x.st.Input)
	in.Prompt = "tool name: "
	in.Placeholder = "the name of a tool of the server"
	in.CharLimit = maxToolName
	in.SetWidth(max(x.w-4, 10))
	x.named = namePrompt{input: in}
	x.mode = modeNamePrompt
	return x.named.input.Focus()
}

// namePromptKey edits the name: enter opens the tools/call form of the
// tool named (its arguments as a JSON object), esc goes back to the list.
func (x *Explorer) namePromptKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, x.keys.Back):
		x.backToList()
		return nil
	case key.Matches(msg, x.keys.NameDone):
		name := strings.TrimSpace(x.named.input.Value())
		if name == "" {
			return nil
		}
		x.backToList()
		return x.openToolForm(entry{tab: tabTools, name: name})
	}
	var cmd tea.Cmd
	x.named.input, cmd = x.named.input.Update(msg)
	return cmd
}

// openNamedForm opens the tools/call form of x.target, a tool the server
// has not described (openToolForm): its arguments typed as a JSON object
// in the form's JSON editor.
func (x *Explorer) openNamedForm() tea.Cmd {
	name := x.target.name
	cmd := x.openForm(nil, "tools/call "+name)
	if x.form == nil {
		return cmd
	}
	x.info = "tools/call " + look.OneLine(name) + ": its arguments as a JSON object (the dialect says nothing of them); ctrl+s sends"
	return tea.Batch(cmd, x.form.EditJSON())
}

// renderNamePrompt draws the name input and what it is for.
func (x *Explorer) renderNamePrompt(w int) []string {
	return []string{
		x.st.Ink.Muted.Paint(look.FitLine("call a tool the server has not listed: type its name, then enter", w)),
		x.named.input.View(),
	}
}
