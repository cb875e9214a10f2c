package media

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/mediatest"
)

// FuzzParseWAV feeds ParseWAV, Describe and Strip clips as a server may
// send them: whatever they hold, nothing panics and the strip stays
// within its width.
func FuzzParseWAV(f *testing.F) {
	f.Add(mediatest.WAV(8000, 100, 0.5, -1))
	f.Add(mediatest.WAV(8000, 10, 0.5, 1<<31))
	f.Add([]byte("RIFF\x00\x00\x00\x00WAVEdata\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = Describe("audio", "audio/wav", b)
		w, err := ParseWAV(b)
		if err != nil {
			return
		}
		_ = w.String()
		if n := len([]rune(Strip(w, 16))); n > 16 {
			t.Fatalf("strip of %d glyphs in 16", n)
		}
	})
}

// FuzzPreview feeds Preview images as a server may send them: nothing
// panics, and the preview, half blocks or the Picture sent to a terminal,
// never outgrows the cells it is given; the same
// bytes as a URI never name a path, a hidden file or a control.
func FuzzPreview(f *testing.F) {
	f.Add(mediatest.Quadrants(f, 8, 6))
	f.Add(mediatest.LyingPNG(100000, 100000))
	f.Add(mediatest.LyingPNG(3, 3))
	f.Add(mediatest.ScanBomb(MaxJPEGScans + 1))
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = Describe("image", "image/png", b)
		lines := Preview(Item{Kind: "image", Base64: base64.StdEncoding.EncodeToString(b)}, 12, 4)
		if len(lines) > 4 {
			t.Fatalf("%d rows in 4", len(lines))
		}
		it := Item{Kind: "image", Base64: base64.StdEncoding.EncodeToString(b)}
		if pic, _, ok := PictureLater(it, 12, 4); ok && pic != nil {
			if px := pic.Pixels.Bounds(); pic.Cols > 12 || pic.Rows > 4 || px.Dx() > 12*CellWidth || px.Dy() > 4*CellHeight {
				t.Fatalf("a picture of %d×%d cells, %v pixels, in 12×4", pic.Cols, pic.Rows, px)
			}
			if _, err := pic.Overlay(Sixel, 0, pic.Rows, CellWidth, CellHeight); err != nil {
				t.Fatal(err)
			}
		}
		if name := (Item{URI: string(b)}).FileName(1); strings.TrimSpace(name) == "" || name == "~" || strings.ContainsAny(name, "/\\\x00\x1b"+slashLike) || name[0] == '.' || len(name) > maxName {
			t.Fatalf("file name %q from the URI %q", name, b)
		}
	})
}

// FuzzItems: the quick look that spares decoding most results never
// passes over one that holds an image, audio or blob.
func FuzzItems(f *testing.F) {
	for _, s := range []string{
		`{"content":[{"type":"image","data":"AA=="}]}`, `{"contents":[{"uri":"a:b","BLOB":"AA=="}]}`,
		`{"content":[{"type":"resource","resource":{"uri":"a:b","Blob":"AA=="}}]}`,
		`{"content":[{"type":"im\u0061ge","data":"AA=="}]}`, `{"messages":[{"content":{"type":"audio","data":""}}]}`,
		`{"content":[{"type":"text","text":"no picture here"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(items(b)) > 0 && !mayHoldItems(b) {
			t.Fatalf("the quick look passes over items: %s", b)
		}
	})
}
