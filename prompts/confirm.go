package prompts

import (
	"encoding/json"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
)

// confirmWidget answers a confirm prompt with true or false.
type confirmWidget struct {
	*base
	yes bool
}

// newConfirm starts on the prompt's default, else on no.
func newConfirm(b *base) *confirmWidget {
	w := &confirmWidget{base: b}
	_ = json.Unmarshal(b.prompt.DefaultValue, &w.yes)
	return w
}

// Update handles one message: y and n answer at once, ←/→ switch, enter
// answers what is selected, esc cancels.
func (w *confirmWidget) Update(msg tea.Msg) (Action, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, w.keys.Yes), key.Matches(k, w.keys.No):
			yes := key.Matches(k, w.keys.Yes)
			if yes != w.yes {
				w.yes = yes
				w.edited(w.Validate)
			}
			return w.submit(w.Validate()), nil
		}
	}
	return w.update(w, msg)
}

func (w *confirmWidget) edit(msg tea.Msg) (bool, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, w.keys.Switch) {
		w.yes = !w.yes
		return true, nil
	}
	return false, nil
}

// Value is true or false.
func (w *confirmWidget) Value() (json.RawMessage, error) { return json.Marshal(w.yes) }

// Validate never fails: a confirm always holds an answer.
func (w *confirmWidget) Validate() error { return nil }

// Render draws the two answers with the selected one marked.
func (w *confirmWidget) Render(width, h int) string {
	return w.frame(width, h, "", func(int, int) []string {
		st := &w.styles
		yes, no := st.Selected.Render("(•) Yes"), st.Option.Render("( ) No")
		if !w.yes {
			yes, no = st.Option.Render("( ) Yes"), st.Selected.Render("(•) No")
		}
		return []string{"  " + yes + "   " + no}
	})
}

// KeyMap returns the keys of a confirm prompt.
func (w *confirmWidget) KeyMap() help.KeyMap {
	return keyhelp.Map{
		Short:     []key.Binding{w.keys.Yes, w.keys.No, w.keys.Switch, w.keys.Submit, w.keys.Cancel},
		Essential: []key.Binding{w.keys.Yes, w.keys.No, w.keys.Cancel},
	}
}
