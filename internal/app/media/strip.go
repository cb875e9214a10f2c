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

// Strip draws the level of a WAV clip as width glyphs, each the RMS of
// one slice of the clip on a -60…0 dBFS scale; "" when its samples are
// not PCM of 1 to 4 bytes or float of 4 or 8 (plain or extensible) or it
// holds none. PCM of a width between whole bytes (12 bits) is read in its
// container, as it is stored.
func Strip(w WAV, width int) string {
	fb := w.frameBytes()
	if fb == 0 || width <= 0 {
		return ""
	}
	rms := sampleRMS(w.encoding(), fb/w.Channels)
	frames := len(w.Data) / fb
	if rms == nil || frames == 0 {
		return ""
	}
	width = min(width, frames)
	var sb strings.Builder
	for i := range width {
		db := DBFS(rms(w.Data[i*frames/width*fb : (i+1)*frames/width*fb]))
		n := int(float64(len(levels)-1) * min(max((db-floorDB)/-floorDB, 0), 1))
		sb.WriteRune(levels[n])
	}
	return sb.String()
}

// sampleRMS is the RMS, as a fraction of full scale, of samples of
// encoding (1 PCM, 3 float) size bytes each; nil for what Strip does
// not read.
func sampleRMS(encoding uint16, size int) func([]byte) float64 {
	var sample func([]byte) float64
	switch {
	case encoding == 1 && size == 1:
		sample = func(b []byte) float64 { return float64(int(b[0])-128) / 128 }
	case encoding == 1 && size == 2:
		return RMS16
	case encoding == 1 && size == 3:
		sample = func(b []byte) float64 {
			return float64(int32(uint32(b[0])<<8|uint32(b[1])<<16|uint32(b[2])<<24)) / (1 << 31)
		}
	case encoding == 1 && size == 4:
		sample = func(b []byte) float64 { return float64(int32(binary.LittleEndian.Uint32(b))) / (1 << 31) }
	case encoding == 3 && size == 4:
		sample = func(b []byte) float64 { return finite(float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))) }
	case encoding == 3 && size == 8:
		sample = func(b []byte) float64 { return finite(math.Float64frombits(binary.LittleEndian.Uint64(b))) }
	default:
		return nil
	}
	return func(pcm []byte) float64 {
		n := len(pcm) / size
		if n == 0 {
			return 0
		}
		var sum float64
		for i := range n {
			s := sample(pcm[i*size:])
			sum += s * s
		}
		return math.Sqrt(sum / float64(n))
	}
}

// finite is a float sample clipped to full scale, 0 for NaN.
func finite(s float64) float64 {
	if math.IsNaN(s) {
		return 0
	}
	return min(max(s, -1), 1)
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

// DBFS is a level given as a fraction of full scale in decibels, no
// lower than -96 (silence in 16 bits).
func DBFS(rms float64) float64 {
	if rms <= 0 {
		return -96
	}
	return max(20*math.Log10(rms), -96)
}
