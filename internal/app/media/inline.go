package media

import (
	"bytes"
	"fmt"
	"image"
	"strings"

	"github.com/charmbracelet/x/ansi/kitty"
)

// cellPixels is the width in pixels assumed of one cell when a picture is
// scaled before it is sent: sixel counts pixels, not cells, and Kitty
// and iTerm are sent no more pixels than the cells show.
const cellPixels = 10

// Inline renders an image for protocol p in at most cols×rows cells, its
// aspect kept as HalfBlocks keeps it (a cell is taken for twice as tall
// as wide), ending with a newline: the terminal's own picture for Kitty,
// ITerm and Sixel, half blocks at most rows high for Blocks, "" for Off.
// The picture sent is the image scaled to at most cellPixels a cell
// wide, so it costs the terminal no more than the cells show. The
// sequences are mcpscope's own: the server's bytes never reach the
// terminal, only pixels mcpscope encodes.
func Inline(p Protocol, img image.Image, cols, rows int) (string, error) {
	b := img.Bounds()
	sent := func() image.Image {
		w, h := Fit(b.Dx(), b.Dy(), cols*cellPixels, rows*2*cellPixels)
		if w == b.Dx() && h == b.Dy() {
			return img
		}
		return Scale(img, w, h)
	}
	switch p {
	case Off:
		return "", nil
	case Blocks:
		return strings.Join(HalfBlocks(img, cols, rows), "\n") + "\n", nil
	case Kitty:
		w, h := Fit(b.Dx(), b.Dy(), cols, rows*2)
		var out bytes.Buffer
		err := kitty.EncodeGraphics(&out, sent(), &kitty.Options{Action: kitty.TransmitAndPut, Transmission: kitty.Direct,
			Format: kitty.PNG, Quiet: 2, Columns: w, Rows: (h + 1) / 2, Chunk: true})
		if err != nil {
			return "", fmt.Errorf("kitty graphics: %w", err)
		}
		return out.String() + "\n", nil
	case ITerm:
		w, h := Fit(b.Dx(), b.Dy(), cols, rows*2)
		return line(itermImage(sent(), w, (h+1)/2))
	case Sixel:
		return line(sixelImage(sent()))
	}
	return "", fmt.Errorf("no picture protocol %d", int(p))
}

// line ends a picture with a newline, or is "" with the error.
func line(s string, err error) (string, error) {
	if err != nil {
		return "", err
	}
	return s + "\n", nil
}
