package pictures

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/kitty"

	"github.com/mcpscope/mcpscope/internal/app/media"
)

// Box is where a view shows a picture: its id, the top-left cell on
// screen (0-based) of what it shows, and the rows shown, Top the first of
// them (a box scrolled half out of view shows its lower rows).
type Box struct {
	ID, X, Y   int
	Cols, Rows int
	Top        int
}

// Place reads where the screen's lines show the pictures of Cells, for
// iTerm2 and sixel: each marked cell becomes a blank, and the boxes whose
// rows on screen are whole (every row of a box scrolled half out of view
// but those cut) are what the next Flush draws over; a box cut at its
// side or partly covered stays blank. For kitty, and a nil Board, the
// lines are returned as they are.
func (b *Board) Place(lines []string) []string {
	if b == nil || (b.proto != media.ITerm && b.proto != media.Sixel) {
		return lines
	}
	type origin struct{ id, x, y int }
	type rows struct{ cells, top, bottom int }
	seen := map[origin]rows{}
	out := slices.Clone(lines)
	for y, l := range lines {
		if !strings.ContainsRune(l, kitty.Placeholder) {
			continue
		}
		var sb strings.Builder
		x, state := 0, byte(0)
		for rest := l; rest != ""; {
			seq, w, n, st := ansi.DecodeSequence(rest, state, nil)
			state, rest = st, rest[n:]
			if r, size := utf8.DecodeRuneInString(seq); r == kitty.Placeholder {
				if m, ok := marks(seq[size:]); ok {
					o := origin{m[2], x - m[1], y - m[0]}
					r, ok := seen[o]
					if !ok {
						r.top, r.bottom = m[0], m[0]
					}
					r.cells, r.top, r.bottom = r.cells+1, min(r.top, m[0]), max(r.bottom, m[0])
					seen[o] = r
				}
				sb.WriteByte(' ')
			} else {
				sb.WriteString(seq)
			}
			x += w
		}
		out[y] = sb.String()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	var placed []Box
	for o, r := range seen {
		s, ok := b.slots[o.id]
		n := r.bottom - r.top + 1
		if ok && r.cells == s.key.cols*n && r.bottom < s.key.rows && o.x >= 0 {
			placed = append(placed, Box{ID: o.id, X: o.x, Y: o.y + r.top, Cols: s.key.cols, Rows: n, Top: r.top})
			b.touch(o.id)
		}
	}
	slices.SortFunc(placed, func(a, c Box) int { return cmp.Or(a.Y-c.Y, a.X-c.X, a.ID-c.ID) })
	b.placed, b.lines = placed, out
	if !slices.Equal(placed, b.shown) {
		b.signal()
	}
	return out
}

// flushOverlay draws again, from the view's cells, the boxes the
// terminal shows that the view no longer has, then draws the boxes it
// does not show yet, the cursor saved and restored around. b.mu is held.
func (b *Board) flushOverlay() string {
	if slices.Equal(b.placed, b.shown) {
		return ""
	}
	var out strings.Builder
	out.WriteString(ansi.SaveCursor)
	for _, s := range b.shown {
		if slices.Contains(b.placed, s) {
			continue
		}
		for r := range s.Rows {
			if y := s.Y + r; y < len(b.lines) {
				out.WriteString(ansi.CUP(s.X+1, y+1) + ansi.ResetStyle + ansi.Cut(b.lines[y], s.X, s.X+s.Cols) + ansi.ResetStyle)
			}
		}
	}
	for _, p := range b.placed {
		if slices.Contains(b.shown, p) {
			continue
		}
		seq, err := b.slots[p.ID].pic.Overlay(b.proto, p.Top, p.Rows, b.cellW, b.cellH)
		if err != nil {
			continue
		}
		out.WriteString(ansi.CUP(p.X+1, p.Y+1) + seq)
	}
	out.WriteString(ansi.RestoreCursor)
	b.shown = slices.Clone(b.placed)
	return out.String()
}

// Redrawn says the terminal drew the whole screen again (a resize): the
// pictures it showed are gone, and the next Flush draws them again.
func (b *Board) Redrawn() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.shown = nil
	if len(b.placed) > 0 {
		b.signal()
	}
}

// SetCellSize sets the size in pixels of a cell, as the terminal reports
// it (CSI 16 t): sixel pictures are scaled to it, drawn again when it
// changes.
func (b *Board) SetCellSize(w, h int) {
	if b == nil || w <= 0 || h <= 0 || w > 1000 || h > 1000 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if w == b.cellW && h == b.cellH {
		return
	}
	b.cellW, b.cellH = w, h
	if b.proto == media.Sixel {
		b.shown = nil
		if len(b.placed) > 0 {
			b.signal()
		}
	}
}

// diacritics maps each of kitty's row and column diacritics to its index.
var diacritics = sync.OnceValue(func() map[rune]int {
	m := map[rune]int{}
	for i := 0; ; i++ {
		r := kitty.Diacritic(i)
		if i > 0 && r == kitty.Diacritic(0) {
			return m
		}
		m[r] = i
	}
})

// marks reads the row, column and id diacritics that follow a
// placeholder of Cells.
func marks(s string) ([3]int, bool) {
	var m [3]int
	i := 0
	for _, r := range s {
		v, ok := diacritics()[r]
		if !ok || i == len(m) {
			return m, false
		}
		m[i] = v
		i++
	}
	return m, i == len(m)
}
