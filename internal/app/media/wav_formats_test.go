package media

import (
	"encoding/binary"
	"math"
	"testing"
)

// wavOf is a clip of format (with subformat sub when extensible), its
// frames of align bytes, data its samples.
func wavOf(format, sub uint16, ch, rate, bits, align int, data []byte) []byte {
	fmtChunk := binary.LittleEndian.AppendUint16(nil, format)
	fmtChunk = binary.LittleEndian.AppendUint16(fmtChunk, uint16(ch))
	fmtChunk = binary.LittleEndian.AppendUint32(fmtChunk, uint32(rate))
	fmtChunk = binary.LittleEndian.AppendUint32(fmtChunk, uint32(rate*align))
	fmtChunk = binary.LittleEndian.AppendUint16(fmtChunk, uint16(align))
	fmtChunk = binary.LittleEndian.AppendUint16(fmtChunk, uint16(bits))
	if format == 0xFFFE {
		fmtChunk = binary.LittleEndian.AppendUint16(fmtChunk, 22)
		fmtChunk = binary.LittleEndian.AppendUint16(fmtChunk, uint16(bits))
		fmtChunk = binary.LittleEndian.AppendUint32(fmtChunk, 3)
		fmtChunk = binary.LittleEndian.AppendUint16(fmtChunk, sub)
		fmtChunk = append(fmtChunk, "\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71"...)
	}
	b := []byte("RIFF\x00\x00\x00\x00WAVEfmt ")
	b = binary.LittleEndian.AppendUint32(b, uint32(len(fmtChunk)))
	b = append(append(b, fmtChunk...), "data"...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(data)))
	return append(b, data...)
}

// Clips in the common formats past 16-bit PCM are timed and drawn: each a
// sine of half full scale, -9 dBFS, drawn ▆.
func TestStripFormats(t *testing.T) {
	const frames = 800
	samples := func(size int, put func([]byte, float64)) []byte {
		b := make([]byte, frames*size)
		for i := range frames {
			put(b[i*size:], 0.5*math.Sin(float64(i)))
		}
		return b
	}
	s16 := samples(2, func(b []byte, v float64) { binary.LittleEndian.PutUint16(b, uint16(int16(v*32767))) })
	s24 := samples(3, func(b []byte, v float64) {
		x := uint32(int32(v * (1<<23 - 1)))
		b[0], b[1], b[2] = byte(x), byte(x>>8), byte(x>>16)
	})
	s32 := samples(4, func(b []byte, v float64) { binary.LittleEndian.PutUint32(b, uint32(int32(v*(1<<31-1)))) })
	f32 := samples(4, func(b []byte, v float64) { binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v))) })
	s12 := samples(2, func(b []byte, v float64) { binary.LittleEndian.PutUint16(b, uint16(int16(v*2047))<<4) })
	for name, clip := range map[string][]byte{
		"extensible s16": wavOf(0xFFFE, 1, 2, 8000, 16, 4, s16),
		"s24":            wavOf(1, 0, 1, 8000, 24, 3, s24),
		"s32":            wavOf(1, 0, 1, 8000, 32, 4, s32),
		"f32":            wavOf(3, 0, 1, 8000, 32, 4, f32),
		"extensible f32": wavOf(0xFFFE, 3, 1, 8000, 32, 4, f32),
		"12-bit":         wavOf(1, 0, 1, 8000, 12, 2, s12),
	} {
		w, err := ParseWAV(clip)
		if err != nil || !w.Timed() || w.Duration() == 0 {
			t.Errorf("%s: %v %v, want it timed", name, w, err)
			continue
		}
		if got := Strip(w, 4); got != "▆▆▆▆" {
			t.Errorf("%s: strip %q, want ▆▆▆▆", name, got)
		}
	}
}
