package schemaform

import (
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
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

// DefaultStyles returns the styles for a dark or a light background.
func DefaultStyles(dark bool) Styles {
	c := lipgloss.LightDark(dark)
	accent := c(lipgloss.Color("#5A3FC0"), lipgloss.Color("#B9A6FF"))
	muted := c(lipgloss.Color("#6B6B6B"), lipgloss.Color("#8A8A8A"))
	danger := c(lipgloss.Color("#C0282D"), lipgloss.Color("#FF6B6B"))
	good := c(lipgloss.Color("#1E7B34"), lipgloss.Color("#6BD68A"))
	warn := c(lipgloss.Color("#9A6700"), lipgloss.Color("#E6B450"))
	in := textinput.DefaultStyles(dark)
	in.Focused.Placeholder = in.Focused.Placeholder.Foreground(muted)
	in.Blurred.Placeholder = in.Blurred.Placeholder.Foreground(muted)
	in.Focused.Prompt = in.Focused.Prompt.Foreground(accent)
	in.Blurred.Prompt = in.Blurred.Prompt.Foreground(muted)
	return Styles{
		Title:       lipgloss.NewStyle().Bold(true).Foreground(accent),
		Label:       lipgloss.NewStyle(),
		Focused:     lipgloss.NewStyle().Bold(true).Foreground(accent),
		Group:       lipgloss.NewStyle().Bold(true),
		Required:    lipgloss.NewStyle().Foreground(danger),
		Hint:        lipgloss.NewStyle().Foreground(muted),
		Description: lipgloss.NewStyle().Foreground(muted).Italic(true),
		Error:       lipgloss.NewStyle().Foreground(danger),
		Note:        lipgloss.NewStyle().Foreground(warn),
		Option:      lipgloss.NewStyle(),
		Selected:    lipgloss.NewStyle().Foreground(good),
		Cursor:      lipgloss.NewStyle().Reverse(true),
		Input:       in,
		Editor:      textarea.DefaultStyles(dark),
	}
}
