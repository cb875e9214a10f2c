package hexview

import (
	"image/color"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/mcpscope/mcpscope/internal/app/theme"
)

// Styles colour a dump. Only colours and text attributes are meaningful:
// width, padding, margins or borders would break the columns.
type Styles struct {
	Offset       lipgloss.Style // the offset column and the "not held" line
	Hex          lipgloss.Style // hex of bytes no field covers; the base of every hex cell
	ASCII        lipgloss.Style // printable characters no field covers; the base of the gutter
	NonPrintable lipgloss.Style // the '.' standing for a non-printable byte, laid over the field's style
	Body         lipgloss.Style // bytes of a body or payload field
	Delimiter    lipgloss.Style // bytes of a delimiter field (the LF of an NDJSON line)
	LegendKey    lipgloss.Style // the field name in a legend entry
	Item         lipgloss.Style // bytes of the selected body item, laid over Body
	ItemHead     lipgloss.Style // the selected item's CBOR head or JSON member name, laid over Body
	ItemLine     lipgloss.Style // the selected line of the item list
	ItemProblem  lipgloss.Style // the label of an undecodable or elided rest in the item list

	// Header is the palette of header fields: the i-th header field (in
	// field order) takes Header[i % len(Header)]. An empty palette colours
	// header bytes with Hex.
	Header []lipgloss.Style
}

// DefaultStyles returns the semantic colours for a dark background (dark)
// or a light one, from the theme's palette.
func DefaultStyles(dark bool) Styles {
	p := theme.For(dark)
	c := func(col color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(col) }
	muted := c(p.Muted)
	header := make([]lipgloss.Style, len(p.Fields))
	for i, col := range p.Fields {
		header[i] = c(col).Bold(true)
	}
	return Styles{
		Offset:       muted,
		Hex:          lipgloss.NewStyle(),
		ASCII:        lipgloss.NewStyle(),
		NonPrintable: muted.Faint(true),
		Body:         c(p.Body),
		Delimiter:    c(p.Error).Bold(true),
		LegendKey:    lipgloss.NewStyle().Bold(true),
		Item:         lipgloss.NewStyle().Reverse(true),
		ItemHead:     lipgloss.NewStyle().Reverse(true).Bold(true).Underline(true),
		ItemLine:     lipgloss.NewStyle().Reverse(true).Bold(true),
		ItemProblem:  c(p.Error),
		Header:       header,
	}
}

// slot says how a byte is coloured: slotNone when no field covers it, a
// palette index for a header field, then past the palette one slot for
// body bytes, one for delimiter bytes, and two for the bytes of the
// selected item, its head and the rest (see painter.slot, itemSlot).
const slotNone = -1

// Columns of a row, each with its own resolution of a slot's style.
const (
	colHex    = iota // hex digits
	colASCII         // printable characters of the gutter
	colDot           // the '.' of a non-printable byte
	colOffset        // the offset column and the not-held line (slot ignored)
	columns
)

// painter resolves the styles of one rendering, each on first use, so that
// a call pays only for the styles its rows show.
type painter struct {
	st      Styles
	palette int     // number of header colours (≥ 1)
	inks    [][]ink // by column, then slot+1: none, palette…, body, delimiter, item, item head
}

// Slots past the palette, from painter.palette.
const (
	slotBody = iota
	slotDelimiter
	slotItem
	slotItemHead
	slotsPastPalette
)

// newPainter prepares the styles of st.
func newPainter(st Styles) *painter {
	p := &painter{st: st, palette: max(len(st.Header), 1), inks: make([][]ink, columns)}
	for c := range p.inks {
		p.inks[c] = make([]ink, 1+p.palette+slotsPastPalette)
	}
	return p
}

// slot is the slot of a field of the given rank; header is the number of
// header fields before it, which picks its palette colour.
func (p *painter) slot(rank, header int) int {
	switch rank {
	case rankHeader:
		return header % p.palette
	case rankDelimiter:
		return p.palette + slotDelimiter
	}
	return p.palette + slotBody
}

// itemSlot is the slot of a byte of the selected item: its head or the rest.
func (p *painter) itemSlot(head bool) int {
	if head {
		return p.palette + slotItemHead
	}
	return p.palette + slotItem
}

// field is the style of the bytes of a slot's field, as its legend swatch
// shows it; slotNone has no style of its own.
func (p *painter) field(slot int) lipgloss.Style {
	switch {
	case slot == slotNone:
		return lipgloss.NewStyle()
	case slot < p.palette && len(p.st.Header) == 0:
		return p.st.Hex
	case slot < p.palette:
		return p.st.Header[slot]
	}
	switch slot - p.palette {
	case slotBody:
		return p.st.Body
	case slotItem:
		return p.st.Item.Inherit(p.st.Body)
	case slotItemHead:
		return p.st.ItemHead.Inherit(p.st.Body)
	}
	return p.st.Delimiter
}

// style is the style of a cell of column col in slot: the field's style
// wins over the column's, and a non-printable byte keeps its field's colour
// with the NonPrintable attributes added.
func (p *painter) style(col, slot int) lipgloss.Style {
	switch col {
	case colHex:
		return p.field(slot).Inherit(p.st.Hex)
	case colASCII:
		return p.field(slot).Inherit(p.st.ASCII)
	case colDot:
		return p.field(slot).Inherit(p.st.NonPrintable).Inherit(p.st.ASCII)
	}
	return p.st.Offset
}

// write writes text in the style of column col and slot.
func (p *painter) write(b *strings.Builder, col, slot int, text []byte) {
	k := &p.inks[col][slot+1]
	if !k.resolved {
		*k = newInk(p.style(col, slot))
	}
	if !k.wraps {
		b.WriteString(p.style(col, slot).Render(string(text)))
		return
	}
	b.WriteString(k.pre)
	b.Write(text)
	b.WriteString(k.post)
}
