package media

import (
	"bytes"
	"errors"
	"image"
	"image/jpeg"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/mediatest"
)

// A progressive JPEG of a thousand scans is refused before a pixel is
// read; one of a few scans, and an ordinary JPEG, still decode.
func TestDecodeRefusesScanBomb(t *testing.T) {
	if _, _, err := Decode(mediatest.ScanBomb(1000)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("1000 scans: %v, want ErrTooLarge", err)
	}
	if n := jpegScans(mediatest.ScanBomb(3), MaxJPEGScans); n != 4 {
		t.Fatalf("counted %d scans of 4", n)
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, 16, 16)), nil); err != nil {
		t.Fatal(err)
	}
	for _, data := range [][]byte{mediatest.ScanBomb(3), b.Bytes()} {
		if _, _, err := Decode(data); err != nil {
			t.Fatalf("%d bytes: %v", len(data), err)
		}
	}
}

// FuzzJPEGScans walks the markers of whatever a server sends as a JPEG:
// nothing panics, and the count stops just past its limit.
func FuzzJPEGScans(f *testing.F) {
	f.Add(mediatest.ScanBomb(3))
	f.Add([]byte{0xFF, 0xD8, 0xFF, 0xDA, 0xFF, 0xFF, 0xDA, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		if n := jpegScans(b, 4); n > 5 || n < 0 {
			t.Fatalf("%d scans counted with a limit of 4", n)
		}
	})
}
