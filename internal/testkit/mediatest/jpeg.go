package mediatest

import (
	"bytes"
	"strings"
)

// ScanBomb is a 2896×2896 grey progressive JPEG of a few KB plus scans
// more scans, each of a few bytes: decoding walks every block on each
// scan, so a thousand cost seconds.
func ScanBomb(scans int) []byte {
	var b bytes.Buffer
	b.Write([]byte{0xFF, 0xD8})
	b.Write([]byte{0xFF, 0xDB, 0, 67, 0}) // one quantisation table of ones
	b.Write(bytes.Repeat([]byte{1}, 64))
	b.Write([]byte{0xFF, 0xC2, 0, 11, 8, 0x0B, 0x50, 0x0B, 0x50, 1, 1, 0x11, 0}) // progressive, one component
	b.Write([]byte{0xFF, 0xC4, 0, 38})                                           // a DC and an AC table of one code each
	for _, tv := range [][2]byte{{0x00, 0}, {0x10, 0xE0}} {
		b.WriteByte(tv[0])
		b.WriteByte(1)
		b.Write(make([]byte, 15))
		b.WriteByte(tv[1])
	}
	b.Write([]byte{0xFF, 0xDA, 0, 8, 1, 1, 0x00, 0, 0, 0}) // the DC scan
	b.Write(make([]byte, (362*362+7)/8))
	eob := entropyBits(strings.Repeat("0"+"11111111111111", 5))
	for range scans {
		b.Write([]byte{0xFF, 0xDA, 0, 8, 1, 1, 0x00, 1, 63, 0}) // an AC scan: one end-of-band run
		b.Write(eob)
	}
	b.Write([]byte{0xFF, 0xD9})
	return b.Bytes()
}

// entropyBits packs a string of 0s and 1s into JPEG entropy-coded bytes,
// padded with 1s, each 0xFF stuffed with a 0.
func entropyBits(s string) []byte {
	for len(s)%8 != 0 {
		s += "1"
	}
	var out []byte
	for i := 0; i < len(s); i += 8 {
		var c byte
		for j := range 8 {
			c = c<<1 | (s[i+j] - '0')
		}
		out = append(out, c)
		if c == 0xFF {
			out = append(out, 0)
		}
	}
	return out
}
