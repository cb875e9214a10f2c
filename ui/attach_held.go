package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/jsonindent"
	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/prompts/schemaform"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// heldSchema is what an edited message must be: one JSON object (the
// proxy carries it as the host or the server wrote its own).
var heldSchema = json.RawMessage(`{"type":"object"}`)

// heldKeys are the keys of the paused messages' screen.
type heldKeys struct {
	Forward, Drop, Edit, Back key.Binding
	Submit                    key.Binding // the editor's: forward the edited message
}

func defaultHeldKeys() heldKeys {
	return heldKeys{
		Forward: key.NewBinding(key.WithKeys("enter", "f"), key.WithHelp("enter/f", "forward unchanged")),
		Drop:    key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "drop")),
		Edit:    key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit the JSON, then forward")),
		Back:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
		Submit:  key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "forward edited")),
	}
}

// heldScreen lists the messages a pause filter holds and decides for the
// selected one: forward it unchanged, drop it, or edit its JSON and
// forward that. The list is read again from the session at every
// refresh.
type heldScreen struct {
	steer  Steering
	st     *look.Styles
	nav    nav.Keys
	keys   heldKeys
	list   []proxy.Held
	sel    uint64 // N of the selected message; 0 for none
	editor *schemaform.JSONEditor
	edited proxy.Held // the message being edited, while editor is open
	w, h   int
}

// openHeld opens the paused messages' screen.
func (a *Attach) openHeld() tea.Cmd {
	m := a.inner
	s := &heldScreen{steer: a.src, st: m.styles, nav: m.keys.Keys, keys: defaultHeldKeys()}
	s.reload()
	return m.openOverlay(s)
}

// reload reads the paused messages, keeping the selection on the same
// message while it is held.
func (s *heldScreen) reload() {
	s.list = s.steer.Held()
	i := s.index()
	switch {
	case len(s.list) == 0:
		s.sel = 0
	case i < 0:
		s.sel = s.list[0].N
	}
}

// index is the position of the selection in the list, or -1.
func (s *heldScreen) index() int {
	for i, h := range s.list {
		if h.N == s.sel {
			return i
		}
	}
	return -1
}

// selected is the selected message.
func (s *heldScreen) selected() (proxy.Held, bool) {
	if i := s.index(); i >= 0 {
		return s.list[i], true
	}
	return proxy.Held{}, false
}

// Title names the screen and what it holds.
func (s *heldScreen) Title() string {
	if s.editor != nil {
		return fmt.Sprintf("Paused · editing #%d %s", s.edited.N, termtext.Line(heldWhat(s.edited)))
	}
	return "Paused · " + plural.Count(len(s.list), "message", "messages")
}

// SetSize keeps the body size.
func (s *heldScreen) SetSize(w, h int) { s.w, s.h = w, h }

// Help lists the keys of the list or of the editor.
func (s *heldScreen) Help() help.KeyMap {
	k := s.keys
	if s.editor != nil {
		back := keyhelp.Relabel(k.Back, "back to the list")
		return keyhelp.Map{Short: []key.Binding{k.Submit, back}, Essential: []key.Binding{k.Submit, back}, Typing: true}
	}
	return keyhelp.Map{
		Short: []key.Binding{keyhelp.Relabel(k.Forward, "forward"), keyhelp.Relabel(k.Edit, "edit"),
			keyhelp.Relabel(k.Drop, "drop"), s.nav.Up, s.nav.Down, k.Back},
		Essential: []key.Binding{k.Back},
		Full:      [][]key.Binding{{k.Forward, k.Edit, k.Drop, k.Back}, {s.nav.Up, s.nav.Down, k.Submit}},
	}
}

// Update handles a key of the list or the editor; any other message
// reads the list again.
func (s *heldScreen) Update(msg tea.Msg) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		s.reload()
		if s.editor != nil {
			_, cmd := s.editor.Update(msg)
			return cmd, false
		}
		return nil, false
	}
	if s.editor != nil {
		return s.editKey(k), false
	}
	s.reload()
	switch {
	case key.Matches(k, s.keys.Back):
		return nil, true
	case key.Matches(k, s.keys.Forward):
		return s.decide("forwarded unchanged", proxy.Decision{}), false
	case key.Matches(k, s.keys.Drop):
		return s.decide("dropped", proxy.Decision{Drop: true}), false
	case key.Matches(k, s.keys.Edit):
		return s.edit(), false
	}
	if v, ok := nav.Of(k, s.nav, max(s.h/2, 1)); ok {
		if i := s.index(); i >= 0 {
			s.sel = s.list[v.Apply(i, len(s.list))].N
		}
		return nil, false
	}
	return screen.NotAKey(k), false
}

// decide carries out d for the selected message.
func (s *heldScreen) decide(what string, d proxy.Decision) tea.Cmd {
	h, ok := s.selected()
	if !ok {
		return errorCmd(errors.New("nothing is paused"))
	}
	return steerCmd(fmt.Sprintf("#%d %s %s", h.N, termtext.Line(heldWhat(h)), what), func() error { return s.steer.Decide(h.N, d) })
}

// edit opens the JSON editor on the selected message.
func (s *heldScreen) edit() tea.Cmd {
	h, ok := s.selected()
	switch {
	case !ok:
		return errorCmd(errors.New("nothing is paused"))
	case !json.Valid(h.Body):
		return errorCmd(fmt.Errorf("#%d is not JSON text (a CBOR body?): forward or drop it", h.N))
	}
	ed, err := schemaform.NewJSONEditor(heldSchema, termtext.JSON(h.Body)) // the same JSON, drawn safely
	if err != nil {
		return errorCmd(err)
	}
	ed.SetDark(s.st.Dark)
	s.editor, s.edited = ed, h
	return nil
}

// editKey handles a key of the editor: submit forwards the edited
// message once it is one JSON object; esc goes back to the list.
func (s *heldScreen) editKey(k tea.KeyPressMsg) tea.Cmd {
	action, cmd := s.editor.Update(k)
	switch action {
	case schemaform.ActionCancel:
		s.editor = nil
		s.reload()
	case schemaform.ActionSubmit:
		body, err := s.editor.Value()
		if err != nil { // Validate passed: not reached
			return errorCmd(err)
		}
		n, steer := s.edited.N, s.steer
		note := fmt.Sprintf("#%d %s forwarded edited", n, termtext.Line(heldWhat(s.edited)))
		s.editor = nil
		return tea.Batch(cmd, steerCmd(note, func() error { return steer.Decide(n, proxy.Decision{Body: body}) }))
	}
	return cmd
}

// Render draws the list and the selected message's JSON, or the editor.
func (s *heldScreen) Render(w, h int) string {
	if s.editor != nil {
		head := s.st.Ink.Muted.Paint(look.Cell("edit the message; ctrl+s forwards it edited, esc goes back", w))
		return head + "\n" + s.editor.Render(w, max(h-1, 3))
	}
	if len(s.list) == 0 {
		return s.st.Ink.Muted.Paint(look.Cell("nothing is paused: p sets the pause filter", w))
	}
	rows := min(len(s.list), max(h/3, 1))
	top := min(max(s.index()-rows+1, 0), len(s.list)-rows)
	lines := make([]string, 0, h)
	for _, m := range s.list[top : top+rows] {
		line := look.Cell(fmt.Sprintf("#%-3d %-7s %s  %s  paused by %s", m.N, heldDir(m), heldWhat(m),
			look.ClockTime(m.Since), m.Rule), w)
		if m.N == s.sel {
			line = s.st.Ink.SelFocused.Paint(termtext.Line(line))
		} else {
			line = termtext.Line(line)
		}
		lines = append(lines, line)
	}
	if m, ok := s.selected(); ok {
		lines = append(lines, s.st.Ink.Muted.Paint(look.Cell(fmt.Sprintf("#%d as it came · enter forwards · e edits · d drops", m.N), w)))
		lines = append(lines, termtext.Block(prettyBody(m.Body)))
	}
	return strings.Join(look.FitBlock(strings.Join(lines, "\n"), w, h), "\n")
}

// heldDir says who sent a paused message.
func heldDir(h proxy.Held) string {
	return proxiedDir(&capture.Frame{Dir: h.Dir}, nil)
}

// heldWhat is a paused message's method and tool.
func heldWhat(h proxy.Held) string {
	what := strings.TrimSpace(h.Method + " " + h.Tool)
	if what == "" {
		return "a message"
	}
	return what
}

// heldShown bounds the bytes of a paused message the list shows.
const heldShown = 64 << 10

// prettyBody indents JSON; other bytes, and a message past heldShown,
// are shown as they are (its head).
func prettyBody(body []byte) string {
	if len(body) > heldShown {
		return string(body[:heldShown])
	}
	if out, err := jsonindent.Indent(body, jsonindent.DefaultMaxDepth); err == nil {
		return string(out)
	}
	return string(body)
}

// steeredMsg says a steering command went through: the status bar says
// note.
type steeredMsg struct{ note string }

// steerCmd runs do off the UI's goroutine (a source over a socket waits
// for the proxy's answer) and reports note, or do's error.
func steerCmd(note string, do func() error) tea.Cmd {
	return func() tea.Msg {
		if err := do(); err != nil {
			return screen.ErrorMsg{Err: err}
		}
		return steeredMsg{note: note}
	}
}

// errorCmd reports err in the status bar.
func errorCmd(err error) tea.Cmd {
	return func() tea.Msg { return screen.ErrorMsg{Err: err} }
}
