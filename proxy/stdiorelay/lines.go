package stdiorelay

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// readBuffer is the line reader's buffer: a line that fits is read with
// one copy.
const readBuffer = 64 << 10

// piece is a whole line as it came, or one part of a line past the
// reader's limit.
type piece struct {
	raw  []byte // the bytes, delimiter included when this piece ends the line; owns its memory
	long bool   // part of a line past the limit: raw is not the whole line
	end  bool   // the line ends with this piece (with its LF, or with the stream)
}

// lineReader splits a stream into LF-terminated lines. A line up to max
// bytes (delimiter included) comes whole, in one piece; a longer line
// comes as pieces as it is read, so that it can be carried on without
// ever being held whole. Every byte of the stream is in exactly one piece,
// in order.
type lineReader struct {
	r    *bufio.Reader
	max  int
	long bool  // inside a line past the limit
	err  error // the error that ended the stream, returned once its last piece is out
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, min(readBuffer, max+1)), max: max}
}

// next returns the next piece. A last line without LF comes as it is;
// after it, next returns io.EOF or the read error.
func (lr *lineReader) next() (piece, error) {
	if lr.err != nil {
		return piece{}, lr.err
	}
	if lr.long {
		return lr.nextLong()
	}
	chunk, err := lr.r.ReadSlice('\n')
	if err == nil && len(chunk) <= lr.max {
		return piece{raw: bytes.Clone(chunk), end: true}, nil // the common case
	}
	var parts [][]byte // the chunks of a line longer than the buffer
	size := 0
	for first := true; ; first = false {
		if !first {
			chunk, err = lr.r.ReadSlice('\n')
		}
		size += len(chunk)
		parts = append(parts, bytes.Clone(chunk))
		full := errors.Is(err, bufio.ErrBufferFull)
		if size > lr.max {
			// Past the limit: what was read goes out now, the rest follows.
			p := piece{raw: join(parts, size), long: true, end: err == nil}
			lr.long = full
			if err != nil && !full {
				lr.err, p.end = err, true
			}
			return p, nil
		}
		switch {
		case err == nil:
			return piece{raw: join(parts, size), end: true}, nil
		case full:
			continue
		case size > 0:
			lr.err = err // the last line, cut by EOF or a read error; the error comes next call
			return piece{raw: join(parts, size), end: true}, nil
		default:
			lr.err = err
			return piece{}, err
		}
	}
}

// nextLong returns the next piece of a line past the limit.
func (lr *lineReader) nextLong() (piece, error) {
	chunk, err := lr.r.ReadSlice('\n')
	p := piece{raw: bytes.Clone(chunk), long: true, end: err == nil}
	switch {
	case err == nil:
		lr.long = false
	case errors.Is(err, bufio.ErrBufferFull):
	default:
		// The stream ended inside the line: this piece ends it.
		lr.long, lr.err, p.end = false, err, true
	}
	return p, nil
}

// join concatenates parts into one slice of exactly size bytes.
func join(parts [][]byte, size int) []byte {
	if len(parts) == 1 {
		return parts[0]
	}
	out := make([]byte, 0, size)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
