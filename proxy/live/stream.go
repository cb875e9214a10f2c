package live

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/recordings"
)

// split reads the hub's stream: its hub lines go to v.hubLine, the
// recording's lines to rec (a pipe a recordings.Reader reads), a line at
// a time, however long. It ends rec with what ended the stream.
func (v *Viewer) split(r io.Reader, rec *io.PipeWriter) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) == 0 && err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			rec.CloseWithError(err)
			return
		}
		if bytes.HasPrefix(chunk, hubPrefix) {
			err = v.hubLine(br, chunk, err)
		} else {
			err = passLine(br, chunk, err, rec)
		}
		if err != nil {
			rec.CloseWithError(err)
			return
		}
	}
}

// hubLine reads the rest of a hub line whose first chunk is chunk (read
// with err) and takes it.
func (v *Viewer) hubLine(br *bufio.Reader, chunk []byte, err error) error {
	b := append([]byte(nil), chunk...)
	for errors.Is(err, bufio.ErrBufferFull) {
		if chunk, err = br.ReadSlice('\n'); len(b)+len(chunk) > maxHubLine {
			return fmt.Errorf("a line of the live session is longer than %d MiB", maxHubLine>>20)
		}
		b = append(b, chunk...)
	}
	if err != nil {
		return err
	}
	l, derr := decodeHubLine(bytes.TrimSuffix(b, []byte("\n")))
	if derr != nil {
		return derr
	}
	v.take(l)
	return nil
}

// passLine hands a recording line, whose first chunk is chunk (read with
// err), to rec as it comes.
func passLine(br *bufio.Reader, chunk []byte, err error, rec io.Writer) error {
	for {
		if _, werr := rec.Write(chunk); werr != nil {
			return werr
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return err
		}
		chunk, err = br.ReadSlice('\n')
	}
}

// apply feeds the recording's records into the viewer's store until the
// stream ends, then says why it ended and closes Done.
func (v *Viewer) apply(rd *recordings.Reader, rp *recordings.Replayer, pr *io.PipeReader) {
	defer close(v.done)
	defer pr.CloseWithError(io.ErrClosedPipe) // split writes no more
	defer v.conn.Close()
	var end error
	for {
		rec, err := rd.Next()
		var corrupt *recordings.CorruptError
		if errors.As(err, &corrupt) {
			continue // the line is skipped, as a replay skips it
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				end = err
			}
			break
		}
		if rec.Kind == recordings.RecFrame {
			v.count(rec.Frame)
		}
		rp.Apply(rec)
	}
	v.mu.Lock()
	switch {
	case v.bye != "":
		v.err = errors.New(v.bye)
	case rd.Ended(), v.closed:
		v.err = nil
	case end != nil && !errors.As(end, new(*recordings.TruncatedError)):
		v.err = fmt.Errorf("the live session broke off: %w", end)
	default:
		v.err = errors.New("the proxy went away before the session ended")
	}
	v.mu.Unlock()
}

// count adds the frames a missed mark says the viewer skipped.
func (v *Viewer) count(f *capture.Frame) {
	m, ok := proxy.ParseMark(f)
	if !ok || m.What != proxy.WhatMissed {
		return
	}
	var n int64
	if _, err := fmt.Sscanf(m.Note, missedNote, &n); err == nil && n > 0 {
		v.missed.Add(n)
	}
}
