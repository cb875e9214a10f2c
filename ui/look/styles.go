package look

import (
	"image/color"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"

	"github.com/mcpscope/mcpscope/hexview"
)

// Styles holds every colour and style of the UI, for a dark or a light
// terminal background. The colours are semantic: what a thing means, not
// what it looks like.
type Styles struct {
	Dark bool

	Accent  color.Color // focus, the active tab, the selection of the focused pane
	Muted   color.Color // secondary text: times, column titles, hints
	Error   color.Color // decode errors, error responses, failed streams
	Warning color.Color // notices (such as --insecure) and dropped bytes
	Good    color.Color // ready connections, finished streams
	Out     color.Color // client → server
	In      color.Color // server → client
	SelBG   color.Color // the selected row of a pane without focus

	TabActive, Tab         lipgloss.Style
	Title, TitleFocused    lipgloss.Style
	ColumnHeader           lipgloss.Style
	StatusBar, StatusLabel lipgloss.Style
	StatusError, Notice    lipgloss.Style

	Hex  hexview.Styles
	Help help.Styles

	// Ink holds the fast forms of the styles painted on every row.
	Ink  Inks
	json jsonTints
}

// Inks are the styles painted on every row, as tints: text in the theme's
// colours, the selected row focused or not, and log levels.
type Inks struct {
	Accent, Muted, Error, Warn, Good, Out, In Tint
	SelFocused, SelBlurred, SelError          Tint
	Level                                     map[string]Tint // by log level
}

// NewStyles returns the styles for a dark or a light background.
func NewStyles(dark bool) Styles {
	ld := lipgloss.LightDark(dark)
	s := Styles{
		Dark:    dark,
		Accent:  ld(lipgloss.Color("#5A3FD6"), lipgloss.Color("#9D8CFF")),
		Muted:   ld(lipgloss.Color("#6E6E6E"), lipgloss.Color("#8A8A8A")),
		Error:   ld(lipgloss.Color("#C0262D"), lipgloss.Color("#FF6B6B")),
		Warning: ld(lipgloss.Color("#A15C00"), lipgloss.Color("#F2B33D")),
		Good:    ld(lipgloss.Color("#1E7F3A"), lipgloss.Color("#5FD38D")),
		Out:     ld(lipgloss.Color("#0B6BCB"), lipgloss.Color("#6CB6FF")),
		In:      ld(lipgloss.Color("#8A3FB5"), lipgloss.Color("#E29BFF")),
		SelBG:   ld(lipgloss.Color("#E4E4E4"), lipgloss.Color("#3A3A3A")),
		Hex:     hexview.DefaultStyles(dark),
		Help:    help.DefaultStyles(dark),
	}
	onAccent := ld(lipgloss.Color("#FFFFFF"), lipgloss.Color("#1A1A1A"))
	s.TabActive = lipgloss.NewStyle().Bold(true).Foreground(onAccent).Background(s.Accent)
	s.Tab = lipgloss.NewStyle().Foreground(s.Muted)
	s.Title = lipgloss.NewStyle().Bold(true).Foreground(s.Muted)
	s.TitleFocused = lipgloss.NewStyle().Bold(true).Foreground(s.Accent)
	s.ColumnHeader = lipgloss.NewStyle().Foreground(s.Muted).Underline(true)
	s.StatusBar = lipgloss.NewStyle().Background(s.SelBG)
	s.StatusLabel = lipgloss.NewStyle().Background(s.SelBG).Foreground(s.Muted)
	s.StatusError = lipgloss.NewStyle().Background(s.SelBG).Foreground(s.Error).Bold(true)
	s.Notice = lipgloss.NewStyle().Background(s.SelBG).Foreground(s.Warning).Bold(true)

	s.Ink.Accent = newTint(lipgloss.NewStyle().Foreground(s.Accent))
	s.Ink.Muted = newTint(lipgloss.NewStyle().Foreground(s.Muted))
	s.Ink.Error = newTint(lipgloss.NewStyle().Foreground(s.Error))
	s.Ink.Warn = newTint(lipgloss.NewStyle().Foreground(s.Warning))
	s.Ink.Good = newTint(lipgloss.NewStyle().Foreground(s.Good))
	s.Ink.Out = newTint(lipgloss.NewStyle().Foreground(s.Out))
	s.Ink.In = newTint(lipgloss.NewStyle().Foreground(s.In))
	s.Ink.SelFocused = newTint(lipgloss.NewStyle().Foreground(onAccent).Background(s.Accent))
	s.Ink.SelBlurred = newTint(lipgloss.NewStyle().Background(s.SelBG))
	s.Ink.SelError = newTint(lipgloss.NewStyle().Foreground(s.Error).Background(s.SelBG).Bold(true))
	s.Ink.Level = map[string]Tint{
		"debug": s.Ink.Muted, "info": s.Ink.Good, "notice": s.Ink.Good,
		"warning": s.Ink.Warn, "warn": s.Ink.Warn,
		"error": s.Ink.Error, "critical": s.Ink.Error, "alert": s.Ink.Error, "emergency": s.Ink.Error,
	}
	s.json = newJSONTints(&s)
	return s
}

// Tint is a style reduced to the escape sequences before and after the
// text, so that rows are painted by concatenation, not by a full lipgloss
// render per cell.
type Tint struct{ pre, post string }

// newTint captures the sequences style puts around a text without padding.
func newTint(style lipgloss.Style) Tint {
	const mark = "\x1f"
	r := style.Render(mark)
	i := strings.Index(r, mark)
	if i < 0 {
		return Tint{}
	}
	return Tint{pre: r[:i], post: r[i+len(mark):]}
}

// Paint wraps s in the tint's sequences.
func (t Tint) Paint(s string) string {
	if t.pre == "" || s == "" {
		return s
	}
	return t.pre + s + t.post
}
