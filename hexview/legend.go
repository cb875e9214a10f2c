package hexview

import (
	"strings"
	"unicode"

	"github.com/mcpscope/mcpscope/internal/app/textfit"
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
	entries := make([]string, 0, len(d.Fields))
	header := 0
	for _, f := range d.Fields {
		rank := kindRank(f.Kind)
		slot := p.slot(rank, header)
		if rank == rankHeader {
			header++
		}
		entries = append(entries, legendEntry(p, slot, rank, f.Name, f.Value))
	}
	return textfit.Flow(entries, width)
}

// legendEntry renders one entry.
func legendEntry(p *painter, slot, rank int, name, value string) string {
	name, value = printableText(name), printableText(value)
	if name == "" {
		name = [...]string{"header", "delimiter", "body"}[rank]
	}
	entry := p.field(slot).Render(swatch) + " " + p.st.LegendKey.Render(name)
	if value != "" {
		entry += " = " + value
	}
	return entry
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
