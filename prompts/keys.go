package prompts

import (
	"charm.land/bubbles/v2/key"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
	"github.com/mcpscope/mcpscope/prompts/calendar"
)

// KeyMap holds the keys of the widgets.
type KeyMap struct {
	Submit     key.Binding // validate and answer
	SubmitJSON key.Binding // validate and answer, in the JSON editor (enter is a new line there)
	Cancel     key.Binding // give up the prompt (the caller sends interaction.cancel)
	Up         key.Binding // previous option or file; a number one up
	Down       key.Binding // next option or file; a number one down
	Toggle     key.Binding // select or unselect an option of a multi-select
	Yes        key.Binding // confirm: answer yes at once
	No         key.Binding // confirm: answer no at once
	Switch     key.Binding // confirm: move between yes and no
	Open       key.Binding // file: open a directory or choose a file
	Back       key.Binding // file: the parent directory
	TypePath   key.Binding // file: type a path ("/" from the root, ctrl+l from the directory shown)
	Complete   key.Binding // file: complete the typed path
	Calendar   calendar.KeyMap
}

// DefaultKeyMap returns the keys described in the package documentation.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Submit:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "answer")),
		SubmitJSON: key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "answer")),
		Cancel:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Up:         key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:       key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Toggle:     key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "select")),
		Yes:        key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "yes")),
		No:         key.NewBinding(key.WithKeys("n", "N"), key.WithHelp("n", "no")),
		Switch:     key.NewBinding(key.WithKeys("left", "right", "h", "l", "tab"), key.WithHelp("←/→", "switch")),
		Open:       key.NewBinding(key.WithKeys("enter", "right", "l"), key.WithHelp("enter", "open / choose")),
		Back:       key.NewBinding(key.WithKeys("left", "h", "backspace"), key.WithHelp("←", "parent directory")),
		TypePath:   key.NewBinding(key.WithKeys("/", "ctrl+l"), key.WithHelp("/ ctrl+l", "type a path")),
		Complete:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
		Calendar:   calendar.DefaultKeyMap(),
	}
}

// typedKeys are the keys of a widget that takes typed text: submit and
// cancel, never cut from the hint bar, after the others.
func typedKeys(submit, cancel key.Binding, others ...key.Binding) keyhelp.Map {
	return keyhelp.Map{
		Short:     append(others, submit, cancel),
		Essential: []key.Binding{submit, cancel},
		Typing:    true,
	}
}
