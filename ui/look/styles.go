package look

import (
	"image/color"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/mcpscope/mcpscope/hexview"
	"github.com/mcpscope/mcpscope/internal/app/theme"
	"github.com/mcpscope/mcpscope/ui/pictures"
)

// Styles holds every colour and style of the UI, for a dark or a light
// terminal background. The colours are semantic: what a thing means, not
// what it looks like.
type Styles struct {
	Dark  bool
	Plain bool // the terminal shows no colour: NewPlainStyles

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

	Hex    hexview.Styles
	Help   help.Styles
	Input  textinput.Styles // one-line inputs (filters, the roots editor)
	Editor textarea.Styles  // multi-line editors (a sampling reply)

	// Pictures shows images in the terminal's own protocol; nil: half
	// blocks.
	Pictures *pictures.Board

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

// NewStyles returns the styles for a dark or a light background, every
// colour from the theme's palette.
func NewStyles(dark bool) Styles {
	p := theme.For(dark)
	s := Styles{
		Dark:    dark,
		Accent:  p.Accent,
		Muted:   p.Muted,
		Error:   p.Error,
		Warning: p.Warning,
		Good:    p.Good,
		Out:     p.Out,
		In:      p.In,
		SelBG:   p.Bar,
		Hex:     hexview.DefaultStyles(dark),
		Help:    p.Help(),
		Input:   p.Input(),
		Editor:  p.Editor(),
	}
	s.TabActive = lipgloss.NewStyle().Bold(true).Foreground(p.OnAccent).Background(s.Accent)
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
	s.Ink.SelFocused = newTint(lipgloss.NewStyle().Foreground(p.OnAccent).Background(s.Accent))
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

// NewPlainStyles returns the styles for a terminal that shows no colour
// (NO_COLOR, or a profile without colours): the colours stay, for the
// terminal to drop, and what colour alone marked is marked by a text
// attribute that survives: the focused selection, the active tab and the
// focused title in reverse video, the selection of a pane without focus
// underlined, the status bar in reverse video.
func NewPlainStyles(dark bool) Styles {
	s := NewStyles(dark)
	s.Plain = true
	reverse := lipgloss.NewStyle().Reverse(true)
	s.TabActive = reverse.Bold(true)
	s.TitleFocused = reverse.Bold(true)
	s.StatusBar, s.StatusLabel = reverse, reverse
	s.StatusError, s.Notice = reverse.Bold(true), reverse.Bold(true)
	s.Ink.SelFocused = newTint(reverse)
	s.Ink.SelBlurred = newTint(lipgloss.NewStyle().Underline(true))
	s.Ink.SelError = newTint(lipgloss.NewStyle().Underline(true).Bold(true))
	return s
}

// Colorless reports whether a terminal of profile p shows no colour
// (NO_COLOR, or an output that is no terminal): the UI then draws with
// NewPlainStyles.
func Colorless(p colorprofile.Profile) bool {
	return p == colorprofile.NoTTY || p == colorprofile.ASCII
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
