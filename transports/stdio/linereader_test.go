package stdio

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestLineReaderSplitsAndBoundsLines(t *testing.T) {
	input := "short\n" + "exactly10!\n" + strings.Repeat("L", 25) + "\n" + "crlf\r\n" + "\n" + "tail"
	for name, r := range map[string]io.Reader{
		"whole":    strings.NewReader(input),
		"one byte": iotest.OneByteReader(strings.NewReader(input)),
	} {
		t.Run(name, func(t *testing.T) {
			lr := newLineReader(r, 10, 4)
			want := []line{
				{raw: []byte("short\n"), size: 6},
				{raw: []byte("exactly10!\n"), size: 11},
				{raw: []byte("LLLL"), size: 26, tooLong: true},
				{raw: []byte("crlf\r\n"), size: 6},
				{raw: []byte("\n"), size: 1},
				{raw: []byte("tail"), size: 4},
			}
			for i, w := range want {
				got, err := lr.next()
				if err != nil || !bytes.Equal(got.raw, w.raw) || got.size != w.size || got.tooLong != w.tooLong {
					t.Fatalf("line %d = %q size %d long %v err %v, want %q size %d long %v", i, got.raw, got.size, got.tooLong, err, w.raw, w.size, w.tooLong)
				}
			}
			if _, err := lr.next(); !errors.Is(err, io.EOF) {
				t.Fatalf("after the last line: %v", err)
			}
		})
	}
}

// repeatReader yields n bytes of block's byte, never holding them all.
type repeatReader struct {
	block []byte
	n     int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(int64(len(p)), r.n)], r.block)
	r.n -= int64(k)
	return k, nil
}

func TestLineReaderDropsAHugeLineWithoutStoringIt(t *testing.T) {
	const huge = 256 << 20
	r := io.MultiReader(&repeatReader{block: bytes.Repeat([]byte("q"), 64<<10), n: huge}, strings.NewReader("\nnext\n"))
	lr := newLineReader(r, 1<<20, keptHead)
	ln, err := lr.next()
	if err != nil || !ln.tooLong || ln.size != huge+1 || len(ln.raw) != keptHead || cap(ln.raw) > 2<<20 {
		t.Fatalf("huge line: size %d kept %d cap %d long %v err %v", ln.size, len(ln.raw), cap(ln.raw), ln.tooLong, err)
	}
	if ln, err = lr.next(); err != nil || string(ln.raw) != "next\n" {
		t.Fatalf("line after the huge one = %q, %v", ln.raw, err)
	}
}

func TestLineReaderLinesOwnTheirMemory(t *testing.T) {
	lr := newLineReader(strings.NewReader("first\nsecond\n"), 100, 10)
	a, _ := lr.next()
	b, _ := lr.next()
	if string(a.raw) != "first\n" || string(b.raw) != "second\n" {
		t.Fatalf("lines = %q, %q", a.raw, b.raw)
	}
}
