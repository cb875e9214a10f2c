// Package theme is mcpscope's palette: every colour the UI, the prompts
// and the hex view paint with, by meaning, for a dark and a light terminal
// background, with the contrast each text colour keeps against the
// background it is drawn on (WCAG 2 relative luminance).
package theme

import (
	"image/color"
	"math"

	"charm.land/lipgloss/v2"
)

// MinContrast is the contrast ratio every text colour keeps against the
// background it is drawn on: WCAG's AA level for normal text.
const MinContrast = 4.5

// Palette holds the colours for one kind of background. Text the palette
// gives no colour to is drawn in the terminal's own foreground.
type Palette struct {
	Dark bool

	// Background is the terminal background the palette is made for; no
	// colour is painted with it.
	Background color.Color
	// Bar is the background of the status bar and of the selected row of
	// a pane without focus.
	Bar color.Color

	Text     color.Color // strong text on Background: the keys of hints and help
	Muted    color.Color // secondary text: hints, times, column titles, help
	Accent   color.Color // focus, the active tab, the selection of the focused pane
	OnAccent color.Color // text on Accent
	Error    color.Color // decode errors, error responses, failed streams
	Warning  color.Color // notices (such as --insecure) and dropped bytes
	Good     color.Color // ready connections, finished streams, chosen options
	Out      color.Color // client → server
	In       color.Color // server → client

	// Body colours the bytes of a body field in the hex view, and Fields
	// its header fields, the i-th field taking Fields[i % len(Fields)].
	Body   color.Color
	Fields []color.Color
}

// hex is the colour of a #RRGGBB literal.
func hex(s string) color.Color { return lipgloss.Color(s) }

// For returns the palette of a dark or a light background.
func For(dark bool) Palette {
	if dark {
		return Palette{
			Dark:       true,
			Background: hex("#1E1E1E"),
			Bar:        hex("#303030"),
			Text:       hex("#D0D0D0"),
			Muted:      hex("#A0A0A0"),
			Accent:     hex("#9D8CFF"),
			OnAccent:   hex("#1A1A1A"),
			Error:      hex("#FF7B7B"),
			Warning:    hex("#F2B33D"),
			Good:       hex("#5FD38D"),
			Out:        hex("#6CB6FF"),
			In:         hex("#E29BFF"),
			Body:       hex("#AFD7FF"),
			Fields: []color.Color{
				hex("#FFAF00"), hex("#87FF87"), hex("#D787FF"), // amber, green, violet
				hex("#5FD7FF"), hex("#FF87AF"), hex("#D7D75F"), // cyan, rose, olive
			},
		}
	}
	return Palette{
		Background: hex("#FAFAFA"),
		Bar:        hex("#EBEBEB"),
		Text:       hex("#262626"),
		Muted:      hex("#636363"),
		Accent:     hex("#5A3FD6"),
		OnAccent:   hex("#FFFFFF"),
		Error:      hex("#B0222A"),
		Warning:    hex("#8F5100"),
		Good:       hex("#1A7033"),
		Out:        hex("#0B6BCB"),
		In:         hex("#8A3FB5"),
		Body:       hex("#005F87"),
		Fields: []color.Color{
			hex("#9A5400"), hex("#007A00"), hex("#8700AF"), // amber, green, violet
			hex("#007A9E"), hex("#AF005F"), hex("#5F5F00"), // cyan, rose, olive
		},
	}
}

// Contrast is the WCAG 2 contrast ratio of two colours, from 1 (the same
// luminance) to 21 (black and white). Transparency is ignored.
func Contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// luminance is the WCAG 2 relative luminance of c.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return 0.2126*channel(r) + 0.7152*channel(g) + 0.0722*channel(b)
}

// channel linearises one sRGB channel given in 16 bits.
func channel(v uint32) float64 {
	c := float64(v>>8) / 255
	if c <= 0.03928 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}
