package media

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// WAV is what a RIFF/WAVE header says of a clip, and where its samples
// are in the bytes it was read from.
type WAV struct {
	Format        uint16 // 1 PCM, 3 IEEE float, 0xFFFE extensible …
	Channels      int
	SampleRate    int
	BitsPerSample int
	BlockAlign    int    // bytes of one frame (a sample of every channel)
	SubFormat     uint16 // an extensible clip's own format: 1 PCM, 3 IEEE float
	Data          []byte // the samples held: at most what the data chunk declares
	Declared      uint32 // the data chunk's declared length
}

// maxChunks bounds the chunks ParseWAV walks before the data chunk.
const maxChunks = 64

// ParseWAV reads a RIFF/WAVE clip's format and data chunks. A data chunk
// that declares more bytes than follow keeps what follows (Truncated
// says so); anything else out of shape is an error.
func ParseWAV(b []byte) (WAV, error) {
	var w WAV
	if len(b) < 12 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return w, errors.New("not a RIFF/WAVE file")
	}
	fmtSeen := false
	rest := b[12:]
	for range maxChunks {
		if len(rest) < 8 {
			break
		}
		id, size := string(rest[:4]), binary.LittleEndian.Uint32(rest[4:8])
		body := rest[8:]
		switch id {
		case "fmt ":
			if size < 16 || len(body) < 16 {
				return w, errors.New("WAV format chunk shorter than 16 bytes")
			}
			w.Format = binary.LittleEndian.Uint16(body[0:])
			w.Channels = int(binary.LittleEndian.Uint16(body[2:]))
			w.SampleRate = int(binary.LittleEndian.Uint32(body[4:]))
			w.BlockAlign = int(binary.LittleEndian.Uint16(body[12:]))
			w.BitsPerSample = int(binary.LittleEndian.Uint16(body[14:]))
			if w.Format == 0xFFFE && size >= 40 && len(body) >= 40 {
				w.SubFormat = binary.LittleEndian.Uint16(body[24:]) // the subformat GUID's first two bytes
			}
			fmtSeen = true
		case "data":
			if !fmtSeen {
				return w, errors.New("WAV data chunk before its format chunk")
			}
			w.Declared = size
			w.Data = body[:min(uint64(size), uint64(len(body)))]
			return w, nil
		}
		next := uint64(size) + uint64(size%2) // chunks are padded to an even length
		if next > uint64(len(body)) {
			break
		}
		rest = body[next:]
	}
	if !fmtSeen {
		return w, errors.New("WAV without a format chunk")
	}
	return w, errors.New("WAV without a data chunk")
}

// Truncated says whether the data chunk declares more bytes than it holds.
func (w WAV) Truncated() bool { return uint64(w.Declared) > uint64(len(w.Data)) }

// frameBytes is the size of one sample of every channel: the header's
// block align when it holds each channel's sample (12 bits in 2 bytes,
// 24 in 4), else whole bytes per sample; 0 when the header makes no
// sense.
func (w WAV) frameBytes() int {
	if w.Channels <= 0 || w.BitsPerSample <= 0 || w.Channels > 64 || w.BitsPerSample > 64 {
		return 0
	}
	if c := w.BlockAlign / w.Channels; w.BlockAlign%w.Channels == 0 && c*8 >= w.BitsPerSample && c <= 8 {
		return w.BlockAlign
	}
	if w.BitsPerSample%8 != 0 {
		return 0
	}
	return w.Channels * w.BitsPerSample / 8
}

// encoding is how the samples are stored: 1 PCM or 3 IEEE float, an
// extensible clip's subformat read through.
func (w WAV) encoding() uint16 {
	if w.Format == 0xFFFE {
		return w.SubFormat
	}
	return w.Format
}

// Timed says whether the header says enough to tell how long the clip
// lasts: a sample rate and a frame size that agrees with it.
func (w WAV) Timed() bool { return w.frameBytes() > 0 && w.SampleRate > 0 }

// Duration is how long the samples held last; 0 when the header does not
// say.
func (w WAV) Duration() time.Duration {
	fb := w.frameBytes()
	if fb == 0 || w.SampleRate <= 0 {
		return 0
	}
	frames := int64(len(w.Data) / fb)
	return time.Duration(frames * int64(time.Second) / int64(w.SampleRate))
}

// String is "1 ch · 16000 Hz · 16-bit PCM · 0.50 s", with "(data cut
// short: 2.0 KiB of 1.0 MiB)" when the clip is shorter than it says.
func (w WAV) String() string {
	format := fmt.Sprintf("format %#x", w.Format)
	switch w.Format {
	case 1:
		format = "PCM"
	case 3:
		format = "float"
	case 0xFFFE:
		format = "extensible"
		switch w.SubFormat {
		case 1:
			format = "PCM (extensible)"
		case 3:
			format = "float (extensible)"
		}
	}
	s := fmt.Sprintf("%d ch · %d Hz · %d-bit %s · ", w.Channels, w.SampleRate, w.BitsPerSample, format)
	if w.Timed() {
		s += fmt.Sprintf("%.2f s", w.Duration().Seconds())
	} else {
		s += "duration unknown"
	}
	if w.Truncated() {
		s += fmt.Sprintf(" (data cut short: %d of %d bytes declared)", len(w.Data), w.Declared)
	}
	return s
}
