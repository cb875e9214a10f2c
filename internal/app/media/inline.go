package media

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/iterm2"
	"github.com/charmbracelet/x/ansi/kitty"
	"github.com/charmbracelet/x/ansi/sixel"
)

// cellPixels is the width in pixels assumed of one cell when a picture is
// scaled for sixel, which counts pixels, not cells.
const cellPixels = 10

// Inline renders an image's bytes (data, decoded as img) for protocol p
// in at most cols×rows cells, its aspect kept as HalfBlocks keeps it
// (a cell is taken for twice as tall as wide), ending with a newline: the terminal's own
// picture for Kitty, ITerm and Sixel, half blocks at most rows high for
// Blocks, "" for Off. The sequences are mcpscope's own: the server's
// bytes reach the terminal only as base64 or pixels.
func Inline(p Protocol, data []byte, img image.Image, cols, rows int) (string, error) {
	b := img.Bounds()
	switch p {
	case Off:
		return "", nil
	case Blocks:
		return strings.Join(HalfBlocks(img, cols, rows), "\n") + "\n", nil
	case Kitty:
		w, h := Fit(b.Dx(), b.Dy(), cols, rows*2)
		var out bytes.Buffer
		err := kitty.EncodeGraphics(&out, img, &kitty.Options{Action: kitty.TransmitAndPut, Transmission: kitty.Direct,
			Format: kitty.PNG, Quiet: 2, Columns: w, Rows: (h + 1) / 2, Chunk: true})
		if err != nil {
			return "", fmt.Errorf("kitty graphics: %w", err)
		}
		return out.String() + "\n", nil
	case ITerm:
		w, h := Fit(b.Dx(), b.Dy(), cols, rows*2)
		f := iterm2.File{Inline: true, Size: int64(len(data)), Width: iterm2.Cells(w), Height: iterm2.Cells((h + 1) / 2),
			Content: []byte(base64.StdEncoding.EncodeToString(data))}
		return ansi.ITerm2(f) + "\n", nil
	case Sixel:
		w, h := Fit(b.Dx(), b.Dy(), cols*cellPixels, rows*2*cellPixels)
		var payload bytes.Buffer
		if err := new(sixel.Encoder).Encode(&payload, Scale(img, w, h)); err != nil {
			return "", fmt.Errorf("sixel: %w", err)
		}
		return ansi.SixelGraphics(0, 1, 0, payload.Bytes()) + "\n", nil
	}
	return "", fmt.Errorf("no picture protocol %d", int(p))
}
