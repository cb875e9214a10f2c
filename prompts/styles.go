package prompts

import (
	"image/color"

	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"

	"github.com/mcpscope/mcpscope/prompts/calendar"
	"github.com/mcpscope/mcpscope/prompts/schemaform"
)

// Styles are the looks of the widgets, by meaning.
type Styles struct {
	Message     lipgloss.Style // the prompt's question
	Rules       lipgloss.Style // the rules of the answer, under the question
	Error       lipgloss.Style // a validation message or a server's refusal
	Suggestion  lipgloss.Style // how the server suggests to answer instead
	Option      lipgloss.Style // an option of a choice, a confirm button
	Selected    lipgloss.Style // a chosen option, the active button
	Cursor      lipgloss.Style // the option under the cursor
	Description lipgloss.Style // an option's description
	Muted       lipgloss.Style // counts, the countdown, paths
	Warning     lipgloss.Style // the countdown in its last seconds
	BarFull     color.Color    // the done part of the progress bar
	BarEmpty    color.Color    // the rest of the progress bar
	Input       textinput.Styles
	Calendar    calendar.Styles
}

// DefaultStyles returns the styles for a dark or a light background. They
// share their palette with the schema form, so that a prompt and an
// elicitation form look alike.
func DefaultStyles(dark bool) Styles {
	fs := schemaform.DefaultStyles(dark)
	return Styles{
		Message:     fs.Title,
		Rules:       fs.Hint,
		Error:       fs.Error,
		Suggestion:  fs.Note,
		Option:      fs.Option,
		Selected:    fs.Selected,
		Cursor:      fs.Cursor,
		Description: fs.Description,
		Muted:       fs.Hint,
		Warning:     fs.Note.Bold(true),
		BarFull:     fs.Focused.GetForeground(),
		BarEmpty:    fs.Hint.GetForeground(),
		Input:       fs.Input,
		Calendar:    fs.Calendar(),
	}
}
