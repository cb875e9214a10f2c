package question

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// rootsKeys are the keys of the roots editor.
type rootsKeys struct {
	Up, Down     key.Binding
	Add, Edit    key.Binding
	Delete       key.Binding
	Save, Cancel key.Binding
	NextField    key.Binding // uri ⇄ name while editing
	Done         key.Binding // keep the root being edited
}

// defaultRootsKeys returns the bindings of the roots editor.
func defaultRootsKeys() rootsKeys {
	return rootsKeys{
		Up:        key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑", "up")),
		Down:      key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", "down")),
		Add:       key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "add")),
		Edit:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "edit")),
		Delete:    key.NewBinding(key.WithKeys("d", "delete"), key.WithHelp("d", "delete")),
		Save:      key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "save and notify the server")),
		Cancel:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close without saving")),
		NextField: key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "uri ⇄ name")),
		Done:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep")),
	}
}

// RootsEditor edits the roots mcpscope exposes (key ctrl+r): add, edit,
// delete; ctrl+s keeps the list for roots/list and sends
// notifications/roots/list_changed.
type RootsEditor struct {
	d       screen.Host
	bridge  *Bridge // keeps the roots roots/list answers with
	st      *look.Styles
	keys    rootsKeys
	roots   []mcp.Root
	sel     int
	editing int // index of the root being edited, len(roots) for a new one, -1 when none
	uri     textinput.Model
	name    textinput.Model
	onName  bool
	note    string
	w, h    int
}

// RootsSentMsg says how saving the roots went (Report).
type RootsSentMsg struct {
	n    int
	sent bool // notifications/roots/list_changed went out
	err  error
}

// OpenRoots returns the roots editor on the roots b keeps.
func OpenRoots(d screen.Host, b *Bridge) *RootsEditor {
	e := newRootsEditor(d, b.Roots())
	e.bridge = b
	return e
}

// newRootsEditor returns an editor of roots.
func newRootsEditor(d screen.Host, roots []mcp.Root) *RootsEditor {
	e := &RootsEditor{d: d, st: d.Styles(), keys: defaultRootsKeys(), roots: roots, editing: -1}
	e.uri, e.name = textinput.New(), textinput.New()
	e.uri.Prompt, e.name.Prompt = "uri:  ", "name: "
	e.uri.Placeholder, e.name.Placeholder = "file:///path/to/project or a local path", "optional"
	e.restyle()
	return e
}

// Title names the editor.
func (e *RootsEditor) Title() string {
	return fmt.Sprintf("Roots · %d exposed to the server by roots/list", len(e.roots))
}

// SetSize keeps the body size.
func (e *RootsEditor) SetSize(w, h int) {
	e.w, e.h = w, h
	e.uri.SetWidth(max(w-8, 10))
	e.name.SetWidth(max(w-8, 10))
}

// restyle gives the inputs the theme's look.
func (e *RootsEditor) restyle() {
	e.uri.SetStyles(e.st.Input)
	e.name.SetStyles(e.st.Input)
}

// Help lists the keys of the list or of the root being edited.
func (e *RootsEditor) Help() help.KeyMap {
	k := e.keys
	back := keyhelp.Relabel(k.Cancel, "back to the list")
	h := keyhelp.Map{Full: [][]key.Binding{{k.Up, k.Down, k.Add, k.Edit, k.Delete}, {k.Save, k.Cancel}, {k.Done, k.NextField, back}}}
	if e.editing >= 0 {
		h.Short, h.Essential, h.Typing = []key.Binding{k.Done, k.NextField, back}, []key.Binding{k.Done, back}, true
		return h
	}
	h.Short, h.Essential = []key.Binding{k.Add, k.Edit, k.Delete, k.Up, k.Down, k.Save, k.Cancel}, []key.Binding{k.Save, k.Cancel}
	return h
}

// Update handles the keys of the list or of the root being edited.
func (e *RootsEditor) Update(msg tea.Msg) (tea.Cmd, bool) {
	if _, bg := msg.(tea.BackgroundColorMsg); bg { // the root restyled e.st first
		e.restyle()
	}
	k, ok := msg.(tea.KeyPressMsg)
	if e.editing >= 0 {
		if !ok {
			return e.updateInput(msg), false
		}
		return e.editKey(k), false
	}
	if !ok {
		return nil, false
	}
	e.note = ""
	switch {
	case key.Matches(k, e.keys.Cancel):
		e.d.Note("the roots were not changed")
		return nil, true
	case key.Matches(k, e.keys.Save):
		return e.save(), true
	case key.Matches(k, e.keys.Up):
		e.sel = max(e.sel-1, 0)
	case key.Matches(k, e.keys.Down):
		e.sel = max(min(e.sel+1, len(e.roots)-1), 0)
	case key.Matches(k, e.keys.Add):
		return e.startEdit(len(e.roots), mcp.Root{}), false
	case key.Matches(k, e.keys.Edit):
		if e.sel < len(e.roots) {
			return e.startEdit(e.sel, e.roots[e.sel]), false
		}
	case key.Matches(k, e.keys.Delete):
		if e.sel < len(e.roots) {
			e.note = "deleted " + e.roots[e.sel].URI
			e.roots = append(e.roots[:e.sel], e.roots[e.sel+1:]...)
			e.sel = max(min(e.sel, len(e.roots)-1), 0)
		}
	default:
		return screen.NotAKey(k), false
	}
	return nil, false
}

// startEdit opens the inputs on root i.
func (e *RootsEditor) startEdit(i int, r mcp.Root) tea.Cmd {
	e.editing, e.onName = i, false
	e.uri.SetValue(r.URI)
	e.name.SetValue(r.Name)
	e.uri.CursorEnd()
	e.name.Blur()
	return e.uri.Focus()
}

// editKey handles a key while a root is edited.
func (e *RootsEditor) editKey(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, e.keys.Cancel):
		e.editing = -1
		return nil
	case key.Matches(k, e.keys.NextField):
		e.onName = !e.onName
		if e.onName {
			e.uri.Blur()
			return e.name.Focus()
		}
		e.name.Blur()
		return e.uri.Focus()
	case key.Matches(k, e.keys.Done):
		r, err := parseRootInput(e.uri.Value(), e.name.Value())
		if err != nil {
			e.note = err.Error()
			return nil
		}
		if e.editing == len(e.roots) {
			e.roots = append(e.roots, r)
		} else {
			e.roots[e.editing] = r
		}
		e.sel, e.editing, e.note = e.editing, -1, ""
		return nil
	}
	return e.updateInput(k)
}

// updateInput gives a message to the focused input.
func (e *RootsEditor) updateInput(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if e.onName {
		e.name, cmd = e.name.Update(msg)
	} else {
		e.uri, cmd = e.uri.Update(msg)
	}
	return cmd
}

// parseRootInput checks a root typed by the user as --root takes it
// (mcp.ParseRoot): a URI with a scheme and "://", or a local path ("~"
// the home directory) that becomes its absolute file:// URI; a typed name
// replaces the one the URI's last element gives.
func parseRootInput(uri, name string) (mcp.Root, error) {
	r, err := mcp.ParseRoot(uri)
	if err != nil {
		return mcp.Root{}, err
	}
	if name = strings.TrimSpace(name); name != "" {
		r.Name = name
	}
	return r, nil
}

// save keeps the roots for roots/list and, when connected, sends
// notifications/roots/list_changed.
func (e *RootsEditor) save() tea.Cmd {
	roots := append([]mcp.Root{}, e.roots...)
	e.bridge.SetRoots(roots)
	s, err := e.d.Session()
	if err != nil {
		return func() tea.Msg { return RootsSentMsg{n: len(roots)} }
	}
	return func() tea.Msg {
		err := s.SendRoots(roots)
		return RootsSentMsg{n: len(roots), sent: err == nil, err: err}
	}
}

// Report says how the save went, for the status line: a note, or the
// error to show.
func (msg RootsSentMsg) Report() (note string, err error) {
	switch {
	case msg.err != nil:
		return "", fmt.Errorf("%s kept, but notifications/roots/list_changed failed: %w", plural.Count(msg.n, "root", "roots"), msg.err)
	case msg.sent:
		return plural.Count(msg.n, "root", "roots") + " saved; sent notifications/roots/list_changed", nil
	}
	return plural.Count(msg.n, "root", "roots") + " saved; not connected, so the server is told on the next connection", nil
}

// Render draws the list of roots, or the inputs of the root being edited.
func (e *RootsEditor) Render(w, h int) string {
	var lines []string
	lines = append(lines, e.st.Ink.Muted.Paint(look.Cell("roots/list answers with this list; ctrl+s saves it and tells the server", w)), "")
	if len(e.roots) == 0 {
		lines = append(lines, e.st.Ink.Muted.Paint("  (no roots: a to add one)"))
	}
	for i, r := range e.roots {
		text := look.OneLine(r.URI)
		if r.Name != "" {
			text += "  " + e.st.Ink.Muted.Paint("("+look.OneLine(r.Name)+")")
		}
		mark := "  "
		if i == e.sel && e.editing < 0 {
			mark = "› "
		}
		lines = append(lines, look.FitLine(mark+text, w))
	}
	if e.editing >= 0 {
		what := "new root"
		if e.editing < len(e.roots) {
			what = "editing root " + fmt.Sprint(e.editing+1)
		}
		lines = append(lines, "", e.st.Ink.Muted.Paint(what), e.uri.View(), e.name.View())
	}
	if e.note != "" {
		lines = append(lines, "", e.st.Ink.Warn.Paint(look.OneLine(e.note)))
	}
	return strings.Join(lines, "\n")
}

// Roots is the list being edited, not kept yet.
func (e *RootsEditor) Roots() []mcp.Root { return e.roots }

// Editing reports whether the inputs of a root are open.
func (e *RootsEditor) Editing() bool { return e.editing >= 0 }
