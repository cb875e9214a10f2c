package theme

import (
	"fmt"
	"image/color"
	"math"
	"testing"

	"charm.land/lipgloss/v2"
)

// pairs lists every text colour of p with the background it is drawn on.
func pairs(p Palette) map[string][2]color.Color {
	on := func(bg color.Color, named map[string]color.Color) map[string][2]color.Color {
		out := map[string][2]color.Color{}
		for n, c := range named {
			out[n] = [2]color.Color{c, bg}
		}
		return out
	}
	all := on(p.Background, map[string]color.Color{
		"text": p.Text, "muted": p.Muted, "accent": p.Accent, "error": p.Error, "warning": p.Warning,
		"good": p.Good, "out": p.Out, "in": p.In, "body": p.Body,
	})
	for i, c := range p.Fields {
		all[fmt.Sprintf("field %d", i)] = [2]color.Color{c, p.Background}
	}
	for n, pr := range on(p.Bar, map[string]color.Color{"muted": p.Muted, "error": p.Error, "warning": p.Warning, "good": p.Good}) {
		all[n+" on the bar"] = pr
	}
	all["on accent"] = [2]color.Color{p.OnAccent, p.Accent}
	return all
}

// Every text colour reaches 4.5:1 against the background it is drawn on,
// on a dark and on a light terminal.
func TestPaletteContrast(t *testing.T) {
	for _, dark := range []bool{true, false} {
		p := For(dark)
		for name, pr := range pairs(p) {
			if r := Contrast(pr[0], pr[1]); r < MinContrast {
				t.Errorf("dark=%v %s: contrast %.2f:1, want at least %.1f:1", dark, name, r, MinContrast)
			}
		}
	}
}

// The hint bar, the help screen and the inputs draw their text in colours
// that reach 4.5:1 on the background.
func TestWidgetContrast(t *testing.T) {
	for _, dark := range []bool{true, false} {
		p := For(dark)
		h, in, ed := p.Help(), p.Input(), p.Editor()
		styles := map[string]lipgloss.Style{
			"help key": h.ShortKey, "help desc": h.ShortDesc, "help separator": h.ShortSeparator,
			"help ellipsis": h.Ellipsis, "full key": h.FullKey, "full desc": h.FullDesc, "full separator": h.FullSeparator,
			"input placeholder": in.Focused.Placeholder, "input prompt": in.Focused.Prompt, "blurred input": in.Blurred.Text,
			"editor line number": ed.Focused.LineNumber, "editor placeholder": ed.Focused.Placeholder, "blurred editor": ed.Blurred.Text,
		}
		for name, st := range styles {
			c := st.GetForeground()
			if _, none := c.(lipgloss.NoColor); none || c == nil {
				t.Errorf("dark=%v %s has no colour of the theme", dark, name)
				continue
			}
			if r := Contrast(c, p.Background); r < MinContrast {
				t.Errorf("dark=%v %s: contrast %.2f:1, want at least %.1f:1", dark, name, r, MinContrast)
			}
		}
	}
}

func TestContrast(t *testing.T) {
	black, white := lipgloss.Color("#000000"), lipgloss.Color("#FFFFFF")
	for _, c := range []struct {
		a, b color.Color
		want float64
	}{
		{black, white, 21}, {white, black, 21}, {white, white, 1},
		{lipgloss.Color("#777777"), white, 4.48}, // the grey that just misses AA
	} {
		if got := Contrast(c.a, c.b); math.Abs(got-c.want) > 0.01 {
			t.Errorf("Contrast(%v, %v) = %.3f, want %.2f", c.a, c.b, got, c.want)
		}
	}
}
