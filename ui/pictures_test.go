package ui

import (
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/kitty"

	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
)

// picturesModel is the model of mediaStore with the result's detail shown
// and images in protocol p.
func picturesModel(t *testing.T, p media.Protocol, w, h int) *Model {
	t.Helper()
	st, _ := mediaStore(t)
	m := newTestModel(t, st, w, h)
	m.SetImages(p)
	press(m, "end")
	press(m, "enter")
	return m
}

// rawOf is what cmd asks the program to write to the terminal, "" for no
// command.
func rawOf(t *testing.T, cmd tea.Cmd) string {
	t.Helper()
	if cmd == nil {
		return ""
	}
	raw, ok := cmd().(tea.RawMsg)
	if !ok {
		t.Fatalf("the command is no RawMsg")
	}
	return raw.Msg.(string)
}

// picturesRound is one round of the pictures loop: when the Board has
// woken, its command (which waits pictureDelay and encodes), then Update
// of what it returns; else Update of a bare pictures message.
func picturesRound(t *testing.T, m *Model) tea.Cmd {
	t.Helper()
	var msg tea.Msg = picturesMsg{}
	select {
	case <-m.styles.Pictures.Wake():
		msg = m.waitPictures()()
	default:
	}
	_, cmd := m.Update(msg)
	return cmd
}

// boxAt is the screen cell (0-based column, row) of the first picture
// cell of a kitty view.
func boxAt(t *testing.T, view string) (int, int) {
	t.Helper()
	for y, l := range strings.Split(ansi.Strip(view), "\n") {
		if i := strings.IndexRune(l, kitty.Placeholder); i >= 0 {
			return ansi.StringWidth(l[:i]), y
		}
	}
	t.Fatalf("no picture cell on screen:\n%s", view)
	return 0, 0
}

// With kitty, the detail of a result draws its image as placeholder
// cells: each row's diacritics, the id as a 256-colour foreground. The
// next pictures message sends the image once, with a virtual placement
// (U=1) of its box, and nothing the time after.
func TestKittyPictureInDetail(t *testing.T) {
	m := picturesModel(t, media.Kitty, 120, 50)
	view := m.View().Content
	var rows []string
	for _, l := range strings.Split(view, "\n") {
		if strings.ContainsRune(l, kitty.Placeholder) {
			l = l[strings.Index(l, "\x1b[38;5;"):]
			rows = append(rows, strconv.Quote(l[:strings.LastIndex(l, ansi.ResetStyle)+len(ansi.ResetStyle)]))
		}
	}
	goldentest.Check(t, "detail_kitty", strings.Join(rows, "\n")+"\n")
	for r := range 3 {
		cell := string(kitty.Placeholder) + string(kitty.Diacritic(r)) + string(kitty.Diacritic(7))
		if len(rows) != 3 || !strings.Contains(rows[r], strconv.Quote(cell)[1:len(strconv.Quote(cell))-1]) {
			t.Fatalf("row %d lacks its last cell %q:\n%s", r, cell, strings.Join(rows, "\n"))
		}
	}
	raw := rawOf(t, picturesRound(t, m))
	if strings.Count(raw, "a=T") != 1 || !strings.HasPrefix(raw, "\x1b_G") || !strings.Contains(raw, "U=1") ||
		!strings.Contains(raw, "i=1,") || !strings.Contains(raw, "c=8,r=3") {
		t.Fatalf("the transmit is %.160q", raw)
	}
	m.View()
	if _, cmd := m.Update(picturesMsg{}); cmd != nil {
		t.Fatalf("sent again: %.80q", rawOf(t, cmd))
	}
}

// With iTerm2 or sixel, the box is blank on screen; the next pictures
// message draws the picture over it, the cursor saved and restored, then
// nothing while the box stays; a resize draws it again.
func TestOverlayPictureInDetail(t *testing.T) {
	x, y := boxAt(t, picturesModel(t, media.Kitty, 120, 50).View().Content)
	for _, p := range []media.Protocol{media.ITerm, media.Sixel} {
		t.Run(p.String(), func(t *testing.T) {
			m := picturesModel(t, p, 120, 50)
			view := m.View().Content
			if strings.ContainsRune(view, kitty.Placeholder) {
				t.Fatal("picture cells left on screen")
			}
			line := []rune(ansi.Strip(strings.Split(view, "\n")[y]))
			if box := string(line[x : x+8]); box != "        " {
				t.Fatalf("the box at %d,%d holds %q", x, y, box)
			}
			head := map[media.Protocol]string{media.ITerm: "\x1b]1337;File=", media.Sixel: "\x1bP0;1q"}[p]
			raw := rawOf(t, picturesRound(t, m))
			if !strings.HasPrefix(raw, ansi.SaveCursor+ansi.CUP(x+1, y+1)+head) || !strings.HasSuffix(raw, ansi.RestoreCursor) ||
				strings.Count(raw, head) != 1 {
				t.Fatalf("the overlay is %.120q", raw)
			}
			m.View()
			if _, cmd := m.Update(picturesMsg{}); cmd != nil {
				t.Fatalf("nothing changed, yet %.80q is sent", rawOf(t, cmd))
			}
			m.Update(tea.WindowSizeMsg{Width: 120, Height: 50})
			m.View()
			if cmd := picturesRound(t, m); !strings.Contains(rawOf(t, cmd), ansi.CUP(x+1, y+1)+head) {
				t.Fatal("a resize does not draw the picture again")
			}
			if p != media.Sixel {
				return
			}
			m.Update(uv.CellSizeEvent{Width: 8, Height: 16})
			m.View()
			// 8×6 pixels fit a box of 8×3 cells of 8×16: drawn again, not enlarged
			if raw := rawOf(t, picturesRound(t, m)); !strings.Contains(raw, ansi.CUP(x+1, y+1)+head+`"1;1;8;6`) {
				t.Fatalf("the sixel is not drawn again for 8×16 cells: %.80q", raw)
			}
		})
	}
}

// Update, where the program draws its views, encodes no picture: the
// pictures command encodes, and Update writes what it made.
func TestPicturesEncodedOffUpdate(t *testing.T) {
	for _, p := range []media.Protocol{media.Kitty, media.Sixel} {
		t.Run(p.String(), func(t *testing.T) {
			m := picturesModel(t, p, 120, 50)
			b := m.styles.Pictures
			m.View()
			if _, cmd := m.Update(picturesMsg{}); cmd != nil || b.Encodes() != 0 {
				t.Fatalf("Update encoded %d pictures", b.Encodes())
			}
			msg := m.waitPictures()()
			if b.Encodes() != 1 {
				t.Fatalf("the command encoded %d pictures, want 1", b.Encodes())
			}
			_, cmd := m.Update(msg)
			if raw := rawOf(t, cmd); !strings.Contains(raw, map[media.Protocol]string{media.Kitty: "a=T", media.Sixel: "\x1bP0;1q"}[p]) || b.Encodes() != 1 {
				t.Fatalf("after %d encodings Update wrote %.60q", b.Encodes(), raw)
			}
		})
	}
}

// Off shows the one-line description of an image and no picture.
func TestPicturesOff(t *testing.T) {
	m := picturesModel(t, media.Off, 120, 50)
	view := screenText(m)
	if !strings.Contains(view, "│8×6 ") || strings.ContainsAny(view, "▀"+string(kitty.Placeholder)) {
		t.Fatalf("Off draws:\n%s", view)
	}
	if _, cmd := m.Update(picturesMsg{}); cmd != nil {
		t.Fatal("Off sends a picture")
	}
}

// Kitty cells name their picture by a 256-colour index: a renderer of 16
// colours would lose it, so the detail shows the size line only there.
func TestKittyNeeds256Colours(t *testing.T) {
	m := picturesModel(t, media.Kitty, 120, 50)
	m.Update(tea.ColorProfileMsg{Profile: colorprofile.ANSI})
	if view := m.View().Content; strings.ContainsRune(view, kitty.Placeholder) || !strings.Contains(ansi.Strip(view), "│8×6 ") {
		t.Fatalf("16 colours:\n%s", ansi.Strip(view))
	}
	m.Update(tea.ColorProfileMsg{Profile: colorprofile.TrueColor})
	if view := m.View().Content; !strings.ContainsRune(view, kitty.Placeholder) {
		t.Fatalf("true colour:\n%s", ansi.Strip(view))
	}
}
