package theme

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
)

// fg is a style of foreground c.
func fg(c color.Color) lipgloss.Style {
	return lipgloss.NewStyle().Foreground(c)
}

// Help is the look of the hint bar and the help screen: keys in Text,
// their descriptions, separators and the ellipsis in Muted.
func (p Palette) Help() help.Styles {
	key, muted := fg(p.Text), fg(p.Muted)
	return help.Styles{
		ShortKey: key, ShortDesc: muted, ShortSeparator: muted, Ellipsis: muted,
		FullKey: key, FullDesc: muted, FullSeparator: muted,
	}
}

// Input is the look of a one-line text input: typed text in the
// terminal's foreground (Muted once the input loses focus), the prompt in
// Accent while focused, placeholders in Muted.
func (p Palette) Input() textinput.Styles {
	s := textinput.DefaultStyles(p.Dark)
	muted := fg(p.Muted)
	s.Focused = textinput.StyleState{Placeholder: muted, Suggestion: muted, Prompt: fg(p.Accent), Text: lipgloss.NewStyle()}
	s.Blurred = textinput.StyleState{Placeholder: muted, Suggestion: muted, Prompt: muted, Text: muted}
	s.Cursor.Color = p.Text
	return s
}

// Editor is the look of a multi-line editor (the JSON editors, the reply
// to a sampling request): text in the terminal's foreground (Muted once
// it loses focus), line numbers and placeholders in Muted, the line
// number of the cursor's line in Accent, a selection on Bar.
func (p Palette) Editor() textarea.Styles {
	s := textarea.DefaultStyles(p.Dark)
	muted := fg(p.Muted)
	state := textarea.StyleState{
		Base: lipgloss.NewStyle(), Text: lipgloss.NewStyle(), CursorLine: lipgloss.NewStyle(),
		LineNumber: muted, CursorLineNumber: fg(p.Accent), EndOfBuffer: muted, Placeholder: muted, Prompt: muted,
		Selection: lipgloss.NewStyle().Background(p.Bar),
	}
	s.Focused = state
	state.Text, state.CursorLineNumber = muted, muted
	s.Blurred = state
	s.Cursor.Color = p.Text
	return s
}
