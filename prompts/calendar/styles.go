package calendar

import (
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
)

// Styles are the looks of a Picker, by meaning. The host passes them to
// View on every draw, so a change of theme takes effect at once; the zero
// Styles draw plain text.
type Styles struct {
	Title    lipgloss.Style // the month and year above the grid
	Weekday  lipgloss.Style // the Mo Tu We … header
	Day      lipgloss.Style // a day of the month
	Today    lipgloss.Style // today's date
	Selected lipgloss.Style // the day the text holds
	Hint     lipgloss.Style // the labels between the parts of a date-time
	Input    textinput.Styles
}
