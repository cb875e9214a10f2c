package stdio

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// line is one line read from a stream.
type line struct {
	raw     []byte // the whole line with its delimiter, or only the head when tooLong
	size    int64  // true length on the wire, delimiter included
	tooLong bool   // the line broke the limit; raw holds its first bytes only
}

// lineReader splits a stream into LF-terminated lines. Its buffer starts
// small and a line is accumulated up to max bytes; a longer line is never
// stored: its first head bytes are kept and the rest is counted and dropped.
type lineReader struct {
	r    *bufio.Reader
	max  int   // longest body accepted (delimiter excluded)
	head int   // bytes kept of an over-long line
	err  error // the error that ended the last line, returned by the next call
}

func newLineReader(r io.Reader, max, head int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, min(readBuffer, max+1)), max: max, head: head}
}

// next returns the next line. Each line owns fresh memory, so the caller may
// keep it. A last line without LF is returned as is; after it, next returns
// io.EOF or the read error.
//
// A line longer than the reader's buffer is gathered as a list of chunks and
// joined once at the end, so building it allocates about twice its size at
// most, instead of the series of ever larger copies that append would leave.
func (lr *lineReader) next() (line, error) {
	if lr.err != nil {
		return line{}, lr.err
	}
	var (
		ln    line
		parts [][]byte // chunks of a line longer than the buffer, not yet joined
	)
	for {
		chunk, err := lr.r.ReadSlice('\n')
		ln.size += int64(len(chunk))
		if !ln.tooLong {
			body := ln.size
			if err == nil {
				body-- // the LF does not count against the limit
			}
			if body > int64(lr.max) {
				ln.tooLong = true
				ln.raw = make([]byte, 0, lr.head)
				for _, p := range parts {
					ln.raw = appendUpTo(ln.raw, p, lr.head)
				}
				ln.raw = appendUpTo(ln.raw, chunk, lr.head)
				parts = nil
			} else {
				parts = append(parts, bytes.Clone(chunk))
			}
		} else {
			ln.raw = appendUpTo(ln.raw, chunk, lr.head)
		}
		switch {
		case err == nil:
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case ln.size > 0:
			lr.err = err // the last line, cut by EOF or a read error; the error comes next call
		default:
			lr.err = err
			return line{}, err
		}
		if !ln.tooLong {
			ln.raw = join(parts, ln.size)
		}
		return ln, nil
	}
}

// join concatenates parts into one slice of exactly size bytes.
func join(parts [][]byte, size int64) []byte {
	if len(parts) == 1 {
		return parts[0]
	}
	out := make([]byte, 0, size)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// appendUpTo appends src to dst without letting dst grow past limit.
func appendUpTo(dst, src []byte, limit int) []byte {
	room := limit - len(dst)
	if room <= 0 {
		return dst
	}
	return append(dst, src[:min(room, len(src))]...)
}
