package hexview

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// swatch shows a field's colour in the legend.
const swatch = "■"

// Legend returns one entry per field, in field order: a swatch in the
// colour the field's bytes have in Render, then "Name = Value", as in
// "■ length = 227" (just the name when the value is empty; the kind when
// the name is empty). Entries are parted by two spaces and wrapped to width
// columns; an entry wider than width is cut with "…". A width of zero or
// less does not wrap. Control characters in names and values show as
// spaces, so that an entry stays on its line.
func (d Dump) Legend(st Styles, width int) string {
	p := newPainter(st)
	var b strings.Builder
	lineWidth, header := 0, 0
	for _, f := range d.Fields {
		rank := kindRank(f.Kind)
		slot := p.slot(rank, header)
		if rank == rankHeader {
			header++
		}
		entry, w := legendEntry(p, slot, rank, f.Name, f.Value)
		if width > 0 && w > width {
			entry, w = ansi.Truncate(entry, width, "…"), width
		}
		switch {
		case lineWidth == 0:
		case width > 0 && lineWidth+2+w > width:
			b.WriteByte('\n')
			lineWidth = 0
		default:
			b.WriteString("  ")
			lineWidth += 2
		}
		b.WriteString(entry)
		lineWidth += w
	}
	return b.String()
}

// legendEntry renders one entry and returns it with its width in columns.
func legendEntry(p *painter, slot, rank int, name, value string) (string, int) {
	name, value = printableText(name), printableText(value)
	if name == "" {
		name = [...]string{"header", "delimiter", "body"}[rank]
	}
	plain := swatch + " " + name
	entry := p.field(slot).Render(swatch) + " " + p.st.LegendKey.Render(name)
	if value != "" {
		plain += " = " + value
		entry += " = " + value
	}
	return entry, ansi.StringWidth(plain)
}

// printableText replaces control characters by spaces.
func printableText(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}
