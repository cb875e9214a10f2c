package look

import (
	"image/color"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"

	"github.com/mcpscope/mcpscope/internal/app/theme"
)

// Every style of hints, help and secondary text draws in a colour of the
// theme that reaches 4.5:1 against the background it is drawn on: the
// terminal's (as the theme assumes it) or its own.
func TestStylesContrast(t *testing.T) {
	for _, dark := range []bool{true, false} {
		s, p := NewStyles(dark), theme.For(dark)
		styles := map[string]lipgloss.Style{
			"hint key": s.Help.ShortKey, "hint": s.Help.ShortDesc, "hint separator": s.Help.ShortSeparator,
			"hint ellipsis": s.Help.Ellipsis, "help key": s.Help.FullKey, "help": s.Help.FullDesc,
			"help separator": s.Help.FullSeparator, "tab": s.Tab, "title": s.Title, "focused title": s.TitleFocused,
			"column header": s.ColumnHeader, "status label": s.StatusLabel, "status error": s.StatusError,
			"notice": s.Notice, "active tab": s.TabActive, "muted": lipgloss.NewStyle().Foreground(s.Muted),
			"hex offset": s.Hex.Offset, "input placeholder": s.Input.Focused.Placeholder,
		}
		for name, st := range styles {
			fg, bg := st.GetForeground(), st.GetBackground()
			if isNone(fg) {
				t.Errorf("dark=%v %s: no colour", dark, name)
				continue
			}
			if isNone(bg) {
				bg = p.Background
			}
			if r := theme.Contrast(fg, bg); r < theme.MinContrast {
				t.Errorf("dark=%v %s: contrast %.2f:1, want at least %.1f:1", dark, name, r, theme.MinContrast)
			}
		}
	}
}

// isNone reports whether c is no colour: the terminal's own.
func isNone(c color.Color) bool {
	_, none := c.(lipgloss.NoColor)
	return c == nil || none
}

// Without colours, every selection and the focus are still marked by a
// text attribute the terminal keeps: reverse video or underline.
func TestPlainStylesMark(t *testing.T) {
	s := NewPlainStyles(true)
	if !s.Plain {
		t.Error("NewPlainStyles is not Plain")
	}
	for name, tint := range map[string]Tint{"focused selection": s.Ink.SelFocused, "selection": s.Ink.SelBlurred, "selected error": s.Ink.SelError} {
		if p := tint.Paint("x"); !strings.Contains(p, "7m") && !strings.Contains(p, "4m") {
			t.Errorf("%s %q has neither reverse video nor underline", name, p)
		}
	}
	for name, st := range map[string]lipgloss.Style{"active tab": s.TabActive, "focused title": s.TitleFocused, "status bar": s.StatusBar} {
		if !st.GetReverse() {
			t.Errorf("%s is not in reverse video", name)
		}
	}
}
