package pictures

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/app/media"
)

// clock is a Board's time, moved by the test.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// newBoard is a Board for protocol p whose time is a clock the test moves.
func newBoard(p media.Protocol) (*Board, *clock) {
	b := New(p)
	c := &clock{t: time.Unix(1, 0)}
	b.now = c.now
	return b, c
}

// settle is a pictures round once the last view has been on screen for a
// Frame: the command encodes, then Update flushes.
func (c *clock) settle(b *Board) string {
	c.t = c.t.Add(Frame)
	b.Encode()
	return b.Flush()
}

// Flush, which runs in Update, encodes nothing: Encode, which runs in the
// command, does, and a box that only moves is drawn again from the
// encoding made before.
func TestFlushEncodesNothing(t *testing.T) {
	t.Run("sixel", func(t *testing.T) {
		b, clock := newBoard(media.Sixel)
		cells := b.Cells(picture(t, 8, 6))
		b.Place(append([]string{"text"}, cells...))
		clock.t = clock.t.Add(Frame)
		if raw := b.Flush(); raw != "" || b.Encodes() != 0 {
			t.Fatalf("Flush drew %.40q with %d encodings", raw, b.Encodes())
		}
		b.Encode()
		if n := b.Encodes(); n != 1 {
			t.Fatalf("Encode made %d encodings, want 1", n)
		}
		if raw := b.Flush(); !strings.Contains(raw, ansi.CUP(1, 2)+"\x1bP") {
			t.Fatalf("the encoded box is not drawn: %.60q", raw)
		}
		for top := range 3 { // the box scrolls down a row at a time
			b.Place(append(make([]string, top+2), cells...))
			if raw := clock.settle(b); !strings.Contains(raw, ansi.CUP(1, top+3)+"\x1bP") {
				t.Fatalf("the moved box is not drawn: %.60q", raw)
			}
		}
		if n := b.Encodes(); n != 1 {
			t.Fatalf("a box that only moved was encoded again: %d encodings", n)
		}
	})
	t.Run("kitty", func(t *testing.T) {
		b, _ := newBoard(media.Kitty)
		b.Cells(picture(t, 8, 6))
		if raw := b.Flush(); raw != "" || b.Encodes() != 0 {
			t.Fatalf("Flush sent %.40q with %d encodings", raw, b.Encodes())
		}
		select {
		case <-b.Wake():
		default:
			t.Fatal("a picture not encoded yet does not wake the sender again")
		}
		b.Encode()
		if raw := b.Flush(); b.Encodes() != 1 || strings.Count(raw, "a=T") != 1 {
			t.Fatalf("%d encodings, sent %.60q", b.Encodes(), raw)
		}
	})
}

// Bubble Tea writes raw output before the frame of the same tick: a box
// is drawn only once the view that placed it has been on screen for a
// Frame, so that its frame cannot write over the picture.
func TestOverlayWaitsForItsFrame(t *testing.T) {
	b, clock := newBoard(media.Sixel)
	cells := b.Cells(picture(t, 8, 6))
	v1 := append(append([]string{"TEXT TEXT TEXT"}, cells...), "status") // the box on rows 1-3
	b.Place(v1)
	if raw := b.Flush(); raw != "" {
		t.Fatalf("drawn before its view was on screen: %.40q", raw)
	}
	if raw := clock.settle(b); !strings.Contains(raw, ansi.CUP(1, 2)+"\x1bP") {
		t.Fatalf("v1: %.40q", raw)
	}
	v2 := append(append(append([]string{}, cells...), "more text"), "status") // one row up
	b.Place(v2)
	b.Encode()
	if raw := b.Flush(); raw != "" {
		t.Fatalf("drawn for a view not on screen yet: %.60q", raw)
	}
	select {
	case <-b.Wake():
	default:
		t.Fatal("the box left is not waited for again")
	}
	b.Place(v2)
	raw := clock.settle(b)
	if !strings.Contains(raw, ansi.CUP(1, 1)+"\x1bP") || strings.Count(raw, "\x1bP") != 1 {
		t.Fatalf("v2 on screen for a frame, the box is not drawn at row 1: %.60q", raw)
	}
	if !strings.Contains(raw, ansi.CUP(1, 4)+ansi.ResetStyle+"more text"[:8]) {
		t.Fatalf("the row the box left is not drawn from the view: %.160q", raw)
	}
	for range 3 {
		b.Place(v2)
		if raw := clock.settle(b); raw != "" {
			t.Fatalf("drawn again though nothing changed: %.40q", raw)
		}
	}
}

// A view that covers a box drawn, then one that has it back before any
// Flush: the covering view's frame may have written over the picture, so
// the box is drawn again.
func TestOverlayCoveredThenBack(t *testing.T) {
	b, clock := newBoard(media.ITerm)
	cells := b.Cells(picture(t, 8, 6))
	view := append(cells, "status")
	b.Place(view)
	if raw := clock.settle(b); !strings.Contains(raw, "File=") {
		t.Fatalf("not drawn: %.40q", raw)
	}
	cover := []string{"a dialog", "over the box", "", "status"}
	b.Place(cover)
	b.Place(view)
	if raw := clock.settle(b); !strings.Contains(raw, ansi.CUP(1, 1)+"\x1b]1337;File=") {
		t.Fatalf("the box covered for a view is not drawn again: %.60q", raw)
	}
}

// A sixel picture is never enlarged past its pixels, whatever cell size
// the terminal reports, and a cell past maxCellW×maxCellH is ignored: a
// 400×240 picture stays 400×240 pixels at 20×40 cells, and is scaled
// down to 320×192 at 8×16.
func TestSixelCellSizeBounded(t *testing.T) {
	b, clock := newBoard(media.Sixel)
	cells := b.Cells(picture(t, 400, 240))
	b.Place(cells)
	b.SetCellSize(maxCellW+1, 20)
	b.SetCellSize(10, maxCellH+1)
	if b.cellW != media.CellWidth || b.cellH != media.CellHeight {
		t.Fatalf("a cell of %d×%d pixels was taken", b.cellW, b.cellH)
	}
	for _, c := range []struct{ w, h int }{{20, 40}, {maxCellW, maxCellH}, {8, 16}} {
		b.SetCellSize(c.w, c.h)
		want := map[int]string{20: `"1;1;400;240`, maxCellW: `"1;1;400;240`, 8: `"1;1;320;192`}[c.w]
		if raw := clock.settle(b); !strings.Contains(raw, want) {
			t.Fatalf("cells of %d×%d: %.40q, want %s", c.w, c.h, raw, want)
		}
	}
}

// The encodings kept are bounded: past maxCache the least recently used
// go, but not those of the boxes the last view placed.
func TestEncodingsBounded(t *testing.T) {
	b, _ := newBoard(media.Sixel)
	pic := picture(t, 8, 6)
	var view []string
	for i := range maxOverlay {
		p := *pic
		p.Sum[0] = byte(i)
		cells := b.Cells(&p)
		if i == 0 {
			view = cells
		}
	}
	b.Place(view)
	big := strings.Repeat("x", 1<<20)
	b.mu.Lock()
	defer b.mu.Unlock()
	for id := 1; id <= maxOverlay; id++ {
		b.cache = append(b.cache, encoding{s: b.slots[id], key: encKey{0, 3, b.cellW, b.cellH}, seq: big})
		b.cacheBytes += len(big)
	}
	b.trimCache()
	if b.cacheBytes > maxCache || b.cacheBytes != len(b.cache)<<20 {
		t.Fatalf("%d bytes kept in %d encodings", b.cacheBytes, len(b.cache))
	}
	if _, ok := b.cached(b.slots[b.placed[0].ID], b.encKey(b.placed[0])); !ok {
		t.Fatal("the encoding of the box on screen was dropped")
	}
}
