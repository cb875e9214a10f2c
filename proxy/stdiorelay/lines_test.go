package stdiorelay

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// pieces reads every piece of data split with limit max, the reader
// handing over at most chunk bytes a read.
func pieces(t *testing.T, data []byte, max, chunk int) []piece {
	t.Helper()
	lr := newLineReader(iotest.OneByteReader(bytes.NewReader(data)), max)
	if chunk > 1 {
		lr = newLineReader(&chunkReader{data: data, n: chunk}, max)
	}
	var out []piece
	for range len(data) + 2 {
		p, err := lr.next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatalf("next: %v", err)
			}
			return out
		}
		out = append(out, p)
	}
	t.Fatalf("more pieces than bytes in %q", data)
	return nil
}

type chunkReader struct {
	data []byte
	n    int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.data)
	c.data = c.data[k:]
	return k, nil
}

// checkPieces holds the line reader to its promise: every byte in one
// piece, in order; a line within max in one piece; a longer one in
// pieces marked long, the last marked end.
func checkPieces(t *testing.T, data []byte, max int, ps []piece) {
	t.Helper()
	var all []byte
	inLong := false
	for i, p := range ps {
		all = append(all, p.raw...)
		if !p.long && inLong {
			t.Fatalf("piece %d is whole inside a long line", i)
		}
		if !p.long && (!p.end || len(p.raw) > max || len(p.raw) == 0) {
			t.Fatalf("piece %d: whole line of %d bytes, end %v (max %d)", i, len(p.raw), p.end, max)
		}
		if !p.long && bytes.IndexByte(p.raw, '\n') != len(p.raw)-1 && !(i == len(ps)-1 && bytes.IndexByte(p.raw, '\n') < 0) {
			t.Fatalf("piece %d %q is not one line", i, p.raw)
		}
		inLong = p.long && !p.end
	}
	if !bytes.Equal(all, data) {
		t.Fatalf("pieces join to %q, want %q", all, data)
	}
}

func TestProxyStdioLineReader(t *testing.T) {
	cases := []string{
		"",
		"a\n",
		"a\nb",
		"a\r\nbb\n\n",
		"0123456789abcdef\nshort\n0123456789abcdef0123",
		"0123456789\n",
	}
	for _, c := range cases {
		for _, chunk := range []int{1, 3, 100} {
			checkPieces(t, []byte(c), 10, pieces(t, []byte(c), 10, chunk))
		}
	}
	ps := pieces(t, []byte("0123456789abcdef\nx\n"), 10, 100)
	if len(ps) < 2 || !ps[0].long || ps[len(ps)-1].long || string(ps[len(ps)-1].raw) != "x\n" {
		t.Errorf("a line past the limit then a short one: %+v", ps)
	}
}

// FuzzLineReader feeds the stdio proxy's line splitter what a host or a
// server may write: every byte comes out once, in order, in whole lines
// or in the pieces of a line past the limit.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("{\"jsonrpc\":\"2.0\"}\n"), uint8(8), uint8(3))
	f.Add([]byte("a\r\n\n\nlong line here without end"), uint8(4), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, max, chunk uint8) {
		m, c := int(max)+1, int(chunk)+1
		checkPieces(t, data, m, pieces(t, data, m, c))
	})
}
