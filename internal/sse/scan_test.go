package sse

import (
	"bytes"
	"testing"
)

// nearLineEnds are bytes that share a nibble with CR or LF, or sit at the
// edges, so a wrong lookup would take them for a line end.
var nearLineEnds = []byte{'\n', '\r', 0x00, 0x1A, 0x1D, 0x8A, 0x8D, 0xAA, 0xDD, 0x0B, 0x0C, 0xFF}

// TestLineFree puts line ends and bytes like them at each place of inputs
// of every length up to a few blocks, every byte value at each place of
// one, and checks that lineFree skips only whole blocks with no CR or LF
// and, where it is vectorized, stops at the block that holds one.
func TestLineFree(t *testing.T) {
	plain := bytes.Repeat([]byte("data: {\"x\":1}\t"), 30)
	for n := 0; n <= 3*lineBlock+1; n++ {
		in := bytes.Clone(plain[:n])
		checkLineFree(t, in)
		for i := range in {
			for _, c := range nearLineEnds {
				in[i] = c
				checkLineFree(t, in)
			}
			in[i] = plain[i]
		}
	}
	in := bytes.Clone(plain[:2*lineBlock+5])
	for i := range in {
		for c := range 256 {
			in[i] = byte(c)
			checkLineFree(t, in)
		}
		in[i] = plain[i]
	}
}

// checkLineFree checks lineFree(in) against a byte-by-byte search.
func checkLineFree(t *testing.T, in []byte) {
	t.Helper()
	end := bytes.IndexAny(in, "\r\n")
	if end < 0 {
		end = len(in)
	}
	got := lineFree(in)
	want := end - end%lineBlock
	if got%lineBlock != 0 || got > want || (vectorScan && got != want) {
		t.Fatalf("lineFree of %d bytes with a line end at %d = %d, want %d (vectorized %v)", len(in), end, got, want, vectorScan)
	}
}
