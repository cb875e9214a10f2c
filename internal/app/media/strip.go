package media

import (
	"encoding/binary"
	"math"
	"strings"
)

// levels are the strip's glyphs, quietest first.
var levels = []rune("▁▂▃▄▅▆▇█")

// floorDB is the level drawn as the lowest glyph.
const floorDB = -60

// Strip draws the level of a PCM WAV clip as width glyphs, each the RMS of
// one slice of the clip on a -60…0 dBFS scale; "" when the clip is not
// 8- or 16-bit PCM or holds no samples.
func Strip(w WAV, width int) string {
	fb := w.frameBytes()
	if w.Format != 1 || (w.BitsPerSample != 16 && w.BitsPerSample != 8) || fb == 0 || width <= 0 {
		return ""
	}
	frames := len(w.Data) / fb
	if frames == 0 {
		return ""
	}
	width = min(width, frames)
	var sb strings.Builder
	for i := range width {
		slice := w.Data[i*frames/width*fb : (i+1)*frames/width*fb]
		rms := RMS16(slice)
		if w.BitsPerSample == 8 {
			rms = rms8(slice)
		}
		db := DBFS(rms)
		n := int(float64(len(levels)-1) * min(max((db-floorDB)/-floorDB, 0), 1))
		sb.WriteRune(levels[n])
	}
	return sb.String()
}

// RMS16 is the root mean square of PCM s16le samples as a fraction of
// full scale; 0 for no samples.
func RMS16(pcm []byte) float64 {
	n := len(pcm) / 2
	if n == 0 {
		return 0
	}
	var sum float64
	for i := range n {
		s := float64(int16(binary.LittleEndian.Uint16(pcm[2*i:])))
		sum += s * s
	}
	return math.Sqrt(sum/float64(n)) / 32768
}

// rms8 is RMS16 for unsigned 8-bit samples.
func rms8(pcm []byte) float64 {
	if len(pcm) == 0 {
		return 0
	}
	var sum float64
	for _, b := range pcm {
		s := float64(int(b) - 128)
		sum += s * s
	}
	return math.Sqrt(sum/float64(len(pcm))) / 128
}

// DBFS is a level given as a fraction of full scale in decibels, no
// lower than -96 (silence in 16 bits).
func DBFS(rms float64) float64 {
	if rms <= 0 {
		return -96
	}
	return max(20*math.Log10(rms), -96)
}
