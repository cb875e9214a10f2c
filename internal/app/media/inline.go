package media

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/png"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/iterm2"
	"github.com/charmbracelet/x/ansi/kitty"
	"github.com/charmbracelet/x/ansi/sixel"
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
		var file bytes.Buffer
		if err := png.Encode(&file, sent()); err != nil {
			return "", fmt.Errorf("iTerm picture: %w", err)
		}
		f := iterm2.File{Inline: true, Size: int64(file.Len()), Width: iterm2.Cells(w), Height: iterm2.Cells((h + 1) / 2),
			Content: []byte(base64.StdEncoding.EncodeToString(file.Bytes()))}
		return ansi.ITerm2(f) + "\n", nil
	case Sixel:
		var payload bytes.Buffer
		if err := new(sixel.Encoder).Encode(&payload, sent()); err != nil {
			return "", fmt.Errorf("sixel: %w", err)
		}
		return ansi.SixelGraphics(0, 1, 0, payload.Bytes()) + "\n", nil
	}
	return "", fmt.Errorf("no picture protocol %d", int(p))
}
