package media

import (
	"image"
	"image/color"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Fit is the size in pixels an image of w×h takes to fit within maxW×maxH
// pixels with its aspect kept, never enlarged, at least 1×1.
func Fit(w, h, maxW, maxH int) (int, int) {
	if w <= 0 || h <= 0 || maxW <= 0 || maxH <= 0 {
		return 0, 0
	}
	if w <= maxW && h <= maxH {
		return w, h
	}
	return Fill(w, h, maxW, maxH)
}

// Fill is Fit that may enlarge: the largest size of w×h's aspect within
// maxW×maxH pixels, at least 1×1 (w, h, maxW and maxH above 0).
func Fill(w, h, maxW, maxH int) (int, int) {
	// scale = min(maxW/w, maxH/h), in integers
	if int64(w)*int64(maxH) > int64(h)*int64(maxW) {
		return maxW, max(int(int64(h)*int64(maxW)/int64(w)), 1)
	}
	return max(int(int64(w)*int64(maxH)/int64(h)), 1), maxH
}

// samples is how many points a side of one target pixel averages.
const samples = 4

// Scale returns img resized to w×h pixels, each target pixel the average
// of up to samples×samples points of its source box: the cost is bounded
// by the target's size, not the source's.
func Scale(img image.Image, w, h int) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	if sw == 0 || sh == 0 {
		return out
	}
	for y := range h {
		y0, y1 := b.Min.Y+y*sh/h, b.Min.Y+max((y+1)*sh/h, y*sh/h+1)
		for x := range w {
			x0, x1 := b.Min.X+x*sw/w, b.Min.X+max((x+1)*sw/w, x*sw/w+1)
			out.SetRGBA(x, y, average(img, x0, x1, y0, y1))
		}
	}
	return out
}

// average is the mean colour of up to samples×samples points of the box.
func average(img image.Image, x0, x1, y0, y1 int) color.RGBA {
	var r, g, b, a, n uint64
	for i := range min(samples, y1-y0) {
		y := y0 + i*(y1-y0)/min(samples, y1-y0)
		for j := range min(samples, x1-x0) {
			x := x0 + j*(x1-x0)/min(samples, x1-x0)
			cr, cg, cb, ca := img.At(x, y).RGBA()
			r, g, b, a, n = r+uint64(cr), g+uint64(cg), b+uint64(cb), a+uint64(ca), n+1
		}
	}
	return color.RGBA{R: uint8(r / n >> 8), G: uint8(g / n >> 8), B: uint8(b / n >> 8), A: uint8(a / n >> 8)}
}

// HalfBlocks draws img in at most cols×rows cells of half blocks: each cell
// is two pixels, the upper one the foreground of ▀ and the lower one its
// background, in 24-bit colour (a renderer or colorprofile writer brings
// it down to what the terminal shows). The aspect is kept for cells twice
// as tall as wide; a transparent pixel shows the terminal's background.
// One string a row, none wider than cols.
func HalfBlocks(img image.Image, cols, rows int) []string {
	b := img.Bounds()
	w, h := Fit(b.Dx(), b.Dy(), cols, rows*2)
	if w == 0 || h == 0 {
		return nil
	}
	px := Scale(img, w, h)
	lines := make([]string, 0, (h+1)/2)
	for y := 0; y < h; y += 2 {
		var sb strings.Builder
		last := ""
		for x := range w {
			style, glyph := cell(px.RGBAAt(x, y), px.RGBAAt(x, y+1)) // past the last row: transparent
			if style != last {
				sb.WriteString(ansi.ResetStyle + style)
				last = style
			}
			sb.WriteString(glyph)
		}
		sb.WriteString(ansi.ResetStyle)
		lines = append(lines, sb.String())
	}
	return lines
}

// opaque is the alpha from which a pixel is drawn.
const opaque = 128

// cell is the style and glyph of one half-block cell of an upper and a
// lower pixel.
func cell(up, down color.RGBA) (string, string) {
	var st ansi.Style
	switch {
	case up.A < opaque && down.A < opaque:
		return "", " "
	case up.A < opaque:
		return st.ForegroundColor(flat(down)).String(), "▄"
	case down.A < opaque:
		return st.ForegroundColor(flat(up)).String(), "▀"
	}
	return st.ForegroundColor(flat(up)).BackgroundColor(flat(down)).String(), "▀"
}

// flat is c without alpha, as a 24-bit colour.
func flat(c color.RGBA) ansi.TrueColor {
	return ansi.TrueColor(uint32(c.R)<<16 | uint32(c.G)<<8 | uint32(c.B))
}
