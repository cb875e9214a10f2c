// Package mediatest makes the images and audio clips the tests of
// mcpscope's media previews read: a PNG of four coloured quadrants, a WAV
// sine that rises, a PNG header that lies about its size.
package mediatest

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"
)

// Quadrants is a w×h PNG: red top left, green top right, blue bottom
// left, transparent bottom right.
func Quadrants(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.NRGBA{A: 255}
			switch {
			case x < w/2 && y < h/2:
				c.R = 255
			case y < h/2:
				c.G = 255
			case x < w/2:
				c.B = 255
			default:
				c.A = 0
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// WAV is a mono 16-bit PCM clip at rate Hz: a sine of amp (0…1 of full
// scale) rising linearly from 0 over n samples; declared is the data
// chunk's declared length, -1 for the true one.
func WAV(rate, n int, amp float64, declared int) []byte {
	pcm := make([]byte, 0, 2*n)
	for i := range n {
		v := amp * float64(i) / float64(n) * math.Sin(2*math.Pi*440*float64(i)/float64(rate))
		pcm = binary.LittleEndian.AppendUint16(pcm, uint16(int16(v*32767)))
	}
	if declared < 0 {
		declared = len(pcm)
	}
	b := []byte("RIFF")
	b = binary.LittleEndian.AppendUint32(b, uint32(36+len(pcm)))
	b = append(b, "WAVEfmt "...)
	b = binary.LittleEndian.AppendUint32(b, 16)
	b = binary.LittleEndian.AppendUint16(b, 1)
	b = binary.LittleEndian.AppendUint16(b, 1)
	b = binary.LittleEndian.AppendUint32(b, uint32(rate))
	b = binary.LittleEndian.AppendUint32(b, uint32(rate*2))
	b = binary.LittleEndian.AppendUint16(b, 2)
	b = binary.LittleEndian.AppendUint16(b, 16)
	b = append(b, "data"...)
	b = binary.LittleEndian.AppendUint32(b, uint32(declared))
	return append(b, pcm...)
}

// LyingPNG is a PNG whose header claims w×h and which holds no pixels.
func LyingPNG(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 6, 0, 0, 0)
	chunk := append([]byte("IHDR"), ihdr...)
	out := []byte("\x89PNG\r\n\x1a\n")
	out = binary.BigEndian.AppendUint32(out, uint32(len(ihdr)))
	out = append(out, chunk...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(chunk))
}
