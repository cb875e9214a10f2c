package media

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"image"
	"image/png"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/iterm2"
	"github.com/charmbracelet/x/ansi/kitty"
	"github.com/charmbracelet/x/ansi/sixel"
)

// Cell size in pixels assumed of a terminal that does not say: sixel
// counts pixels, not cells.
const (
	CellWidth  = cellPixels
	CellHeight = 2 * cellPixels
)

// Picture is an image made ready for a terminal's own protocol: the box
// of cells it fills (as its half-block preview would, aspect kept) and
// its pixels, scaled to at most CellWidth×CellHeight a cell, never
// enlarged.
type Picture struct {
	Cols, Rows int
	Pixels     *image.RGBA
	Sum        [sha256.Size]byte // of the item's base64: with Cols and Rows, which picture it is
}

// newPicture scales img for at most cols×rows cells.
func newPicture(img image.Image, sum [sha256.Size]byte, cols, rows int) *Picture {
	b := img.Bounds()
	w, h := Fit(b.Dx(), b.Dy(), cols, rows*2)
	if w == 0 || h == 0 {
		return nil
	}
	p := &Picture{Cols: w, Rows: (h + 1) / 2, Sum: sum}
	pw, ph := Fit(b.Dx(), b.Dy(), p.Cols*CellWidth, p.Rows*CellHeight)
	p.Pixels = Scale(img, pw, ph)
	return p
}

// KittyTransmit is the kitty graphics command that sends p as image id
// with a virtual placement of its box (U=1): the terminal shows it in
// cells of kitty.Placeholder whose foreground colour is the id. Quiet: the
// terminal answers nothing.
func (p *Picture) KittyTransmit(id int) (string, error) {
	var out bytes.Buffer
	err := kitty.EncodeGraphics(&out, p.Pixels, &kitty.Options{Action: kitty.TransmitAndPut, Transmission: kitty.Direct,
		Format: kitty.PNG, Quiet: 2, ID: id, VirtualPlacement: true, Columns: p.Cols, Rows: p.Rows, Chunk: true})
	if err != nil {
		return "", fmt.Errorf("kitty graphics: %w", err)
	}
	return out.String(), nil
}

// KittyDelete is the kitty graphics command that forgets image id, its
// placements and its data.
func KittyDelete(id int) string {
	o := kitty.Options{Action: kitty.Delete, Delete: kitty.DeleteID, DeleteResources: true, ID: id, Quiet: 2}
	return ansi.KittyGraphics(nil, o.Options()...)
}

// Overlay is rows of p's rows of cells from top drawn at the cursor over
// as many rows of its box, each cell cellW×cellH pixels: an iTerm2 inline
// image (the terminal scales it to the box) or a sixel image (scaled down
// to fit the box, never enlarged past p's pixels). All of p is top 0 and
// rows p.Rows.
func (p *Picture) Overlay(proto Protocol, top, rows, cellW, cellH int) (string, error) {
	if top < 0 || rows <= 0 || top+rows > p.Rows {
		return "", fmt.Errorf("rows %d to %d of a picture of %d", top, top+rows, p.Rows)
	}
	b := p.Pixels.Bounds()
	img := p.Pixels.SubImage(image.Rect(b.Min.X, b.Min.Y+top*b.Dy()/p.Rows, b.Max.X, b.Min.Y+(top+rows)*b.Dy()/p.Rows))
	if img.Bounds().Empty() {
		return "", nil
	}
	switch proto {
	case ITerm:
		return itermImage(img, p.Cols, rows)
	case Sixel:
		w, h := Fit(img.Bounds().Dx(), img.Bounds().Dy(), p.Cols*cellW, rows*cellH)
		if w != img.Bounds().Dx() || h != img.Bounds().Dy() {
			img = Scale(img, w, h)
		}
		return sixelImage(img)
	}
	return "", fmt.Errorf("no overlay in protocol %s", proto)
}

// itermImage is img as an iTerm2 inline image of cols×rows cells.
func itermImage(img image.Image, cols, rows int) (string, error) {
	var file bytes.Buffer
	if err := png.Encode(&file, img); err != nil {
		return "", fmt.Errorf("iTerm picture: %w", err)
	}
	f := iterm2.File{Inline: true, Size: int64(file.Len()), Width: iterm2.Cells(cols), Height: iterm2.Cells(rows),
		Content: []byte(base64.StdEncoding.EncodeToString(file.Bytes()))}
	return ansi.ITerm2(f), nil
}

// sixelImage is img as a sixel image, one pixel a dot.
func sixelImage(img image.Image) (string, error) {
	var payload bytes.Buffer
	if err := new(sixel.Encoder).Encode(&payload, img); err != nil {
		return "", fmt.Errorf("sixel: %w", err)
	}
	return ansi.SixelGraphics(0, 1, 0, payload.Bytes()), nil
}
