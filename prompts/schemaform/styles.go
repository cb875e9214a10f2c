package schemaform

import (
	"image/color"

	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"

	"github.com/mcpscope/mcpscope/internal/app/theme"
)

// Styles are the looks of the form, by meaning.
type Styles struct {
	Title       lipgloss.Style // the form's title
	Label       lipgloss.Style // a field's name
	Focused     lipgloss.Style // the focused field's name and marker
	Group       lipgloss.Style // a nested object's name
	Required    lipgloss.Style // the * of a required field
	Hint        lipgloss.Style // type and constraints beside a label
	Description lipgloss.Style // help text under the focused field
	Error       lipgloss.Style // a validation error
	Note        lipgloss.Style // a notice about the whole form
	Option      lipgloss.Style // an option of a choice
	Selected    lipgloss.Style // a selected option
	Cursor      lipgloss.Style // the option under the cursor
	Input       textinput.Styles
	Editor      textarea.Styles
}

// DefaultStyles returns the styles for a dark or a light background, every
// colour from the theme's palette.
func DefaultStyles(dark bool) Styles {
	p := theme.For(dark)
	fg := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	return Styles{
		Title:       fg(p.Accent).Bold(true),
		Label:       lipgloss.NewStyle(),
		Focused:     fg(p.Accent).Bold(true),
		Group:       lipgloss.NewStyle().Bold(true),
		Required:    fg(p.Error),
		Hint:        fg(p.Muted),
		Description: fg(p.Muted).Italic(true),
		Error:       fg(p.Error),
		Note:        fg(p.Warning),
		Option:      lipgloss.NewStyle(),
		Selected:    fg(p.Good),
		Cursor:      lipgloss.NewStyle().Reverse(true),
		Input:       p.Input(),
		Editor:      p.Editor(),
	}
}
