package explore

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/contentsave"
)

// askSave opens the line that asks where to save the outcome's next
// image, audio or blob (contentsave): the first, then the next each time
// the key is pressed again on the same answer.
func (x *Explorer) askSave() tea.Cmd {
	if x.out == nil {
		return nil
	}
	it, i, n, err := x.savePick.Pick(fmt.Sprintf("%p", x.out), x.out.Result)
	if err != nil {
		x.d.Note(err.Error())
		return nil
	}
	a, cmd := contentsave.NewAsk(it, i, n)
	a.SetStyles(x.st.Input)
	x.saving = a
	return cmd
}

// saveKey hands a key to the save line; it closes when answered.
func (x *Explorer) saveKey(msg tea.KeyPressMsg) tea.Cmd {
	cmd, done := x.saving.Update(msg)
	if done {
		x.saving = nil
	}
	return cmd
}

// savingKeys are the keys of the save line, for the hint bar.
func savingKeys() []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "save")),
		key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "don't save")),
	}
}
