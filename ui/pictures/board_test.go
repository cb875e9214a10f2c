package pictures

import (
	"encoding/base64"
	"slices"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/kitty"

	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/internal/testkit/mediatest"
)

// picture is an 8×6 image of four colours as a Picture of 8×3 cells.
func picture(t *testing.T, w, h int) *media.Picture {
	t.Helper()
	it := media.Item{Kind: "image", MimeType: "image/png", Base64: base64.StdEncoding.EncodeToString(mediatest.Quadrants(t, w, h))}
	pic, lines, ok := media.PictureLater(it, 40, 12)
	if pic == nil || !ok {
		t.Fatalf("no picture: %q", lines)
	}
	return pic
}

// Each kitty placeholder cell is one cell wide to lipgloss and to the
// renderer's screen buffer, and keeps its row and column diacritics and
// the id as an indexed colour, which no 256-colour or true-colour profile
// changes.
func TestKittyCellsMeasureOneCell(t *testing.T) {
	b := New(media.Kitty)
	pic := picture(t, 8, 6)
	rows := b.Cells(pic)
	if len(rows) != 3 || pic.Cols != 8 {
		t.Fatalf("%d rows of %d cells, want 3 of 8", len(rows), pic.Cols)
	}
	for r, row := range rows {
		if w := lipgloss.Width(row); w != 8 {
			t.Errorf("row %d is %d cells wide to lipgloss, want 8", r, w)
		}
		buf := uv.NewScreenBuffer(10, 1)
		uv.NewStyledString(row).Draw(buf, buf.Bounds())
		for c := range 8 {
			cell := buf.CellAt(c, 0)
			want := string(kitty.Placeholder) + string(kitty.Diacritic(r)) + string(kitty.Diacritic(c))
			if cell == nil || cell.Width != 1 || cell.Content != want {
				t.Fatalf("row %d cell %d: %#v, want %q one cell wide", r, c, cell, want)
			}
			if cell.Style.Fg != ansi.IndexedColor(1) {
				t.Fatalf("row %d cell %d: colour %v, want the id 1 as indexed colour", r, c, cell.Style.Fg)
			}
		}
		if buf.CellAt(8, 0).Content != " " {
			t.Errorf("row %d runs past 8 cells", r)
		}
	}
	for _, p := range []colorprofile.Profile{colorprofile.ANSI256, colorprofile.TrueColor} {
		if got := p.Convert(ansi.IndexedColor(200)); got != ansi.IndexedColor(200) {
			t.Errorf("%v turns the id 200 into %v", p, got)
		}
	}
}

// A kitty picture is sent once, with a virtual placement of its box; an
// id given up is deleted.
func TestKittyFlushSendsOnce(t *testing.T) {
	b := New(media.Kitty)
	pic := picture(t, 8, 6)
	b.Cells(pic)
	select {
	case <-b.Wake():
	default:
		t.Fatal("a new picture does not wake the sender")
	}
	b.Encode()
	raw := b.Flush()
	if strings.Count(raw, "\x1b_G") != 1 || !strings.Contains(raw, "U=1") || !strings.Contains(raw, "i=1") ||
		!strings.Contains(raw, "c=8") || !strings.Contains(raw, "r=3") || !strings.Contains(raw, "a=T") {
		t.Fatalf("the transmit is %.120q", raw)
	}
	b.Cells(pic)
	if raw := b.Flush(); raw != "" {
		t.Fatalf("sent again: %.80q", raw)
	}
	if c := b.Forget(); !strings.Contains(c, "i=1,d=I,a=d") {
		t.Errorf("closing does not delete the image: %q", c)
	}
}

// The ids are bounded: past maxKitty pictures the least recently drawn
// gives its id up, the terminal forgets it and Gen changes.
func TestKittyIDsBounded(t *testing.T) {
	b := New(media.Kitty)
	first := picture(t, 8, 6)
	b.Cells(first)
	b.Encode()
	b.Flush()
	gen := b.Gen()
	for i := range maxKitty {
		p := *first
		p.Sum[0], p.Sum[1] = byte(i), byte(i>>8)+1
		b.Cells(&p)
	}
	if b.Gen() == gen {
		t.Fatal("Gen did not change when an id was given up")
	}
	if raw := b.Flush(); !strings.Contains(raw, "i=1,d=I,a=d") {
		t.Fatal("the id given up is not deleted")
	}
}

// iTerm2 and sixel: Place blanks the box and finds it on screen; Flush
// draws the picture there once, saving and restoring the cursor; a box
// that moves is drawn again where it went and its old place is drawn from
// the view's cells.
func TestOverlayPlaceAndFlush(t *testing.T) {
	for _, proto := range []media.Protocol{media.ITerm, media.Sixel} {
		t.Run(proto.String(), func(t *testing.T) {
			b, clock := newBoard(proto)
			pic := picture(t, 8, 6)
			screen := func(top int) []string {
				var lines []string
				for range top {
					lines = append(lines, "title")
				}
				for _, r := range b.Cells(pic) {
					lines = append(lines, "ab│"+r+"│cd")
				}
				return append(lines, "status")
			}
			got := b.Place(screen(1))
			if strings.ContainsRune(strings.Join(got, ""), kitty.Placeholder) || got[1] != "ab│        │cd" {
				t.Fatalf("the box is not blank: %q", got)
			}
			raw := clock.settle(b)
			head := map[media.Protocol]string{media.ITerm: "\x1b]1337;File=", media.Sixel: "\x1bP0;1q\"1;1;8;6"}[proto]
			if !strings.HasPrefix(raw, ansi.SaveCursor+ansi.CUP(4, 2)+head) || !strings.HasSuffix(raw, ansi.RestoreCursor) {
				t.Fatalf("the overlay is %.80q…", raw)
			}
			b.Place(screen(1))
			if raw := b.Flush(); raw != "" {
				t.Fatalf("nothing changed, yet %.60q is sent", raw)
			}
			b.Place(screen(2))
			raw = clock.settle(b)
			if !strings.Contains(raw, ansi.CUP(4, 2)+ansi.ResetStyle+"le"+ansi.ResetStyle+ansi.CUP(4, 3)) || !strings.Contains(raw, ansi.CUP(4, 3)+head) {
				t.Fatalf("the moved box: %.120q", raw)
			}
			b.Redrawn()
			if raw := clock.settle(b); !strings.Contains(raw, ansi.CUP(4, 3)+head) {
				t.Fatalf("not drawn again after a redraw: %.60q", raw)
			}
		})
	}
}

// A box scrolled half out of view draws the rows it shows; a box cut at
// its side draws nothing.
func TestOverlayPartialBox(t *testing.T) {
	b, clock := newBoard(media.ITerm)
	rows := b.Cells(picture(t, 8, 6))
	lines := b.Place(rows[1:])
	if strings.ContainsRune(strings.Join(lines, ""), kitty.Placeholder) {
		t.Fatal("marks left in the view")
	}
	if raw := clock.settle(b); !strings.HasPrefix(raw, ansi.SaveCursor+ansi.CUP(1, 1)+"\x1b]1337;File=") || !strings.Contains(raw, "width=8;height=2;") {
		t.Fatalf("the lower 2 rows of 3: %.80q", raw)
	}
	cut := slices.Clone(rows)
	cut[1] = ansi.Cut(cut[1], 0, 7)
	b.Place(cut)
	if raw := clock.settle(b); strings.Contains(raw, "File=") {
		t.Fatalf("a box cut at its side is drawn: %.80q", raw)
	}
}

// FuzzPlace: any line, marks or not, panics nothing, and a line of
// printable text (as server text is made, no sequence a mark may hide in)
// keeps none.
func FuzzPlace(f *testing.F) {
	b := New(media.Sixel)
	f.Add("ab" + string(kitty.Placeholder) + string(kitty.Diacritic(0)) + string(kitty.Diacritic(0)) + string(kitty.Diacritic(1)) + "cd")
	f.Add(string(kitty.Placeholder) + "\x1b[31m" + string(kitty.Placeholder) + string(kitty.Diacritic(296)))
	f.Fuzz(func(t *testing.T, line string) {
		out := b.Place([]string{line, line})
		if len(out) != 2 || termtext.Safe(line) && strings.ContainsRune(out[0], kitty.Placeholder) {
			t.Fatalf("%q → %q", line, out)
		}
		b.Flush()
	})
}

// Views drawn on a command's goroutine and the program's Flush and Place
// share one Board.
func TestBoardShared(t *testing.T) {
	for _, proto := range []media.Protocol{media.Kitty, media.Sixel} {
		b := New(proto)
		pic := picture(t, 8, 6)
		done := make(chan struct{})
		go func() {
			defer close(done)
			for i := range 50 {
				p := *pic
				p.Sum[0] = byte(i)
				b.Cells(&p)
			}
		}()
		for range 50 {
			b.Place(b.Cells(pic))
			b.Encode()
			b.Flush()
			b.Gen()
		}
		<-done
	}
}
