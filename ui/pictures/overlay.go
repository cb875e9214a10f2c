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
// lines are returned as they are. A box is drawn once the placement has
// stayed a Frame: see Flush.
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
	if !slices.Equal(placed, b.placed) {
		b.placedAt = b.now()
	}
	// A box drawn that this view does not have as it was may be written
	// over by this view's frame: it is no longer shown, and its cells are
	// drawn again from the view's unless a later view has it back.
	shown := b.shown[:0]
	for _, s := range b.shown {
		if slices.Contains(placed, s) {
			shown = append(shown, s)
		} else if !slices.Contains(b.stale, s) {
			b.stale = append(b.stale, s)
		}
	}
	b.placed, b.shown, b.lines = placed, shown, out
	if len(b.stale) > 0 || !slices.Equal(placed, shown) {
		b.signal()
	}
	return out
}

// flushOverlay draws again, from the view's cells, the boxes drawn that
// the view no longer has, then draws the boxes it placed that are not
// drawn yet, the cursor saved and restored around: once the view that
// placed them has been on screen for a Frame, and each box only when
// Encode has made its picture. What it leaves it wakes for again. b.mu is
// held.
func (b *Board) flushOverlay() string {
	var draw []Box
	for _, p := range b.placed {
		if !slices.Contains(b.shown, p) {
			draw = append(draw, p)
		}
	}
	if len(draw) == 0 && len(b.stale) == 0 {
		return ""
	}
	if b.now().Sub(b.placedAt) < Frame {
		b.signal() // the view that placed them may not be on screen yet
		return ""
	}
	var out strings.Builder
	out.WriteString(ansi.SaveCursor)
	for _, s := range b.stale {
		if slices.Contains(draw, s) {
			continue
		}
		for r := range s.Rows {
			if y := s.Y + r; y < len(b.lines) {
				out.WriteString(ansi.CUP(s.X+1, y+1) + ansi.ResetStyle + ansi.Cut(b.lines[y], s.X, s.X+s.Cols) + ansi.ResetStyle)
			}
		}
	}
	b.stale = nil
	for _, p := range draw {
		seq, ok := b.cached(b.slots[p.ID], b.encKey(p))
		if !ok {
			b.signal() // not encoded yet
			continue
		}
		if seq != "" {
			out.WriteString(ansi.CUP(p.X+1, p.Y+1) + seq)
		}
		b.shown = append(b.shown, p)
	}
	if out.Len() == len(ansi.SaveCursor) {
		return ""
	}
	out.WriteString(ansi.RestoreCursor)
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
	b.shown, b.stale = nil, nil
	b.placedAt = b.now() // the boxes wait for the frame that draws the screen again
	if len(b.placed) > 0 {
		b.signal()
	}
}

// Largest cell SetCellSize takes, in pixels: a sixel picture is never
// enlarged, so a bigger cell would change nothing but the memory a
// terminal could make the Board spend.
const (
	maxCellW = 64
	maxCellH = 128
)

// SetCellSize sets the size in pixels of a cell, as the terminal reports
// it (CSI 16 t): sixel pictures are scaled down to fit their box at that
// size, drawn again when it changes. A size past maxCellW×maxCellH is
// ignored.
func (b *Board) SetCellSize(w, h int) {
	if b == nil || w <= 0 || h <= 0 || w > maxCellW || h > maxCellH {
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
