package question

import (
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/prompts/schemaform"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
)

// elicitResult is the answer to elicitation/create: content only when a
// form is accepted, exactly as the form built it.
type elicitResult struct {
	Action  string          `json:"action"`
	Content json.RawMessage `json:"content,omitempty"`
}

// elicitView answers elicitation/create. Form mode is a form of the
// requestedSchema with its defaults prefilled (ctrl+s accepts once it
// validates, ctrl+d declines, esc cancels). URL mode shows the message,
// the whole URL and the elicitation id, and asks for consent (y, n, esc);
// mcpscope never opens the URL itself.
type elicitView struct {
	st   *look.Styles
	keys questionKeys
	p    mcp.ElicitRequestParams
	form *schemaform.Form // nil in URL mode
	w, h int
}

// newElicitView reads the params of elicitation/create.
func newElicitView(params json.RawMessage, st *look.Styles) (*elicitView, error) {
	v := &elicitView{st: st, keys: defaultQuestionKeys()}
	if err := decodeQuestionParams(params, &v.p); err != nil {
		return nil, err
	}
	switch v.p.EffectiveMode() {
	case mcp.ElicitModeURL:
		if v.p.URL == "" {
			return nil, errors.New("a URL-mode elicitation carries no url")
		}
		return v, nil
	case mcp.ElicitModeForm:
		schema := v.p.RequestedSchema
		if len(schema) == 0 || string(schema) == "null" {
			schema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		f, err := schemaform.New(schema, schemaform.Options{Dark: st.Dark})
		if err != nil {
			return nil, err
		}
		v.form = f
		return v, nil
	}
	return nil, errors.New("unknown elicitation mode " + v.p.Mode)
}

// kind names the question.
func (v *elicitView) kind() string { return "elicitation · " + v.p.EffectiveMode() }

// setSize keeps the size and gives the form what the header leaves.
func (v *elicitView) setSize(w, h int) {
	v.w, v.h = w, h
	if v.form != nil {
		v.form.SetSize(w, max(h-len(v.header(w)), 1))
	}
}

// update handles the keys of the mode; other messages go to the form.
func (v *elicitView) update(msg tea.Msg) (tea.Cmd, *questionAnswer) {
	if bg, ok := msg.(tea.BackgroundColorMsg); ok && v.form != nil {
		v.form.SetDark(bg.IsDark())
	}
	k, isKey := msg.(tea.KeyPressMsg)
	if v.form == nil {
		switch {
		case !isKey:
		case key.Matches(k, v.keys.Yes):
			return nil, elicitAnswer(mcp.ElicitActionAccept, nil)
		case key.Matches(k, v.keys.No):
			return nil, elicitAnswer(mcp.ElicitActionDecline, nil)
		case key.Matches(k, v.keys.Cancel):
			return nil, elicitAnswer(mcp.ElicitActionCancel, nil)
		}
		return nil, nil
	}
	if isKey && key.Matches(k, v.keys.Decline) {
		return nil, elicitAnswer(mcp.ElicitActionDecline, nil)
	}
	action, cmd := v.form.Update(msg)
	switch action {
	case schemaform.ActionSubmit:
		content, err := v.form.Value()
		if err != nil { // Validate passed, so the fields parse
			return cmd, nil
		}
		return cmd, elicitAnswer(mcp.ElicitActionAccept, content)
	case schemaform.ActionCancel:
		return cmd, elicitAnswer(mcp.ElicitActionCancel, nil)
	case schemaform.ActionEditJSON:
		v.setSize(v.w, v.h)
	}
	return cmd, nil
}

// elicitAnswer wraps an elicitation result as an answer.
func elicitAnswer(action string, content json.RawMessage) *questionAnswer {
	return &questionAnswer{result: elicitResult{Action: action, Content: content}}
}

// header is the message (and in URL mode the URL and the consent
// question), wrapped to w: never cut, whatever its length.
func (v *elicitView) header(w int) []string {
	w = max(w, 1)
	wrap := func(s string) []string { return strings.Split(ansi.Hardwrap(ansi.Wordwrap(s, w, ""), w, true), "\n") }
	msg := termtext.Block(v.p.Message)
	if msg == "" {
		msg = "(the server gave no message)"
	}
	lines := wrap(msg)
	if v.form != nil {
		return append(lines, "")
	}
	lines = append(lines, "")
	for _, l := range wrap("The server asks you to open this URL; mcpscope never opens it by itself:") {
		lines = append(lines, v.st.Ink.Warn.Paint(l))
	}
	lines = append(lines, strings.Split(ansi.Hardwrap(termtext.Line(v.p.URL), w, true), "\n")...)
	if u, err := url.Parse(v.p.URL); err == nil && u.Host != "" {
		lines = append(lines, v.st.Ink.Muted.Paint("host: ")+look.OneLine(u.Host))
	}
	id := look.OneLine(v.p.ElicitationID)
	if id == "" {
		id = "(none given)"
	}
	lines = append(lines, v.st.Ink.Muted.Paint("elicitation id: ")+id, "")
	return append(lines, wrap("Open it yourself if you trust it. y accepts (you go there), n declines, esc cancels.")...)
}

// render draws the header and the form.
func (v *elicitView) render(w, h int) string {
	head := v.header(w)
	if v.form == nil || len(head) >= h {
		return strings.Join(head, "\n")
	}
	return strings.Join(head, "\n") + "\n" + v.form.Render(w, h-len(head))
}

// help lists the keys of the mode. In form mode the keys that pick an
// option of the focused field rank first, and they, accept and cancel are
// never cut from the hint bar; the help lists the form's keys too, where
// accept and cancel stand for the form's submit and cancel.
func (v *elicitView) help() help.KeyMap {
	k := v.keys
	if v.form == nil {
		return keyhelp.Map{Short: []key.Binding{k.Yes, k.No, k.Cancel}, Essential: []key.Binding{k.Yes, k.No, k.Cancel}}
	}
	fk := keyhelp.Of(v.form.KeyMap())
	own := []key.Binding{k.Accept, k.Decline, k.Cancel}
	h := keyhelp.Map{Essential: []key.Binding{k.Accept, k.Cancel}, Typing: fk.Typing, Full: [][]key.Binding{own}}
	var rest []key.Binding
	for _, b := range fk.Short {
		switch b.Help().Key {
		case k.Accept.Help().Key, k.Cancel.Help().Key, "enter": // accept and cancel are ours; enter moves on or accepts
		default:
			if fk.IsEssential(b) {
				h.Short = append(h.Short, b)
				h.Essential = append(h.Essential, b)
			} else {
				rest = append(rest, b)
			}
		}
	}
	h.Short = append(append(append(h.Short, k.Accept, k.Decline), rest...), k.Cancel)
	for _, col := range fk.FullHelp() {
		col = slices.DeleteFunc(slices.Clone(col), func(b key.Binding) bool {
			return b.Help().Key == k.Accept.Help().Key || b.Help().Key == k.Cancel.Help().Key
		})
		h.Full = append(h.Full, col)
	}
	return h
}
