package explore

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
)

// The explorer on a transport with no lists: tools-http and tools-ws carry
// tools/call alone, so no list can be asked for. The Tools list then holds
// the tools known from elsewhere (KnownTools: the demo's own, or those a
// recording of the same target called) and those this connection has
// called, and n calls a tool by the name the user types, with its
// arguments as a JSON object.

// KnownTools are tools known beside a server that has no tools/list: the
// demo's own definitions, or the names of the tools a past recording of
// the same target called.
type KnownTools struct {
	From  string     // where they come from, as the screen says it
	Tools []mcp.Tool // a name always; a description and inputSchema when known
}

// ToolSource is a Host that knows tools beside the server's lists; the
// explorer offers them on a transport with no tools/list.
type ToolSource interface {
	KnownTools() *KnownTools
}

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
	items, from := x.knownEntries(transport)
	listed := len(items)
	for _, n := range s.CalledTools() {
		if !slices.ContainsFunc(items, func(e entry) bool { return e.name == n }) {
			items = append(items, entry{tab: tabTools, name: n, desc: "called on this connection; " + transport + " says nothing of its arguments"})
		}
	}
	called := fmt.Sprintf("the %s this connection called", plural.Count(len(items)-listed, "tool", "tools"))
	switch {
	case from != "" && len(items) > listed:
		tools.none = "listed: " + from + " and " + called + " · n calls any tool by its name"
	case from != "":
		tools.none = "listed: " + from + " · n calls any tool by its name"
	case len(items) > 0:
		tools.none = transport + " has no tools list: n calls a tool by its name, with JSON arguments · listed: " + called
	default:
		tools.none = transport + " has no tools list: n calls a tool by its name, with JSON arguments"
	}
	if len(items) == len(tools.items) {
		return true // the same tools: the selection stays
	}
	tools.setItems(items)
	return true
}

// knownEntries are the entries of the tools the host knows beside the
// server (ToolSource), and where they come from in words; none when it
// knows none.
func (x *Explorer) knownEntries(transport string) ([]entry, string) {
	src, ok := x.d.(ToolSource)
	if !ok {
		return nil, ""
	}
	known := src.KnownTools()
	if known == nil || len(known.Tools) == 0 {
		return nil, ""
	}
	from := look.OneLine(known.From)
	items := make([]entry, 0, len(known.Tools))
	for _, t := range known.Tools {
		raw, err := json.Marshal(t)
		if err != nil || t.Name == "" {
			continue
		}
		e := decodeEntry(tabTools, raw)
		if len(e.schema) == 0 {
			e.desc = strings.TrimSpace(e.desc + " (" + from + "; " + transport + " says nothing of its arguments)")
		}
		items = append(items, e)
	}
	return items, from
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
	x.info = "tools/call " + look.OneLine(name) + ": its arguments as a JSON object (this transport says nothing of them); ctrl+s sends"
	return tea.Batch(cmd, x.form.EditJSON())
}

// renderNamePrompt draws the name input and what it is for.
func (x *Explorer) renderNamePrompt(w int) []string {
	return []string{
		x.st.Ink.Muted.Paint(look.FitLine("call a tool the server has not listed: type its name, then enter", w)),
		x.named.input.View(),
	}
}
