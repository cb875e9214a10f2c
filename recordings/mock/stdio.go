package mock

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// ServeStdio serves rec as line-delimited JSON-RPC: a message a line from
// in, the answers a line each on out (the answers to a batch as one JSON
// array on one line), until in ends (nil) or ctx does. A line over
// MaxMessage bytes gets an error answer and is skipped. Answers are
// written as they are made, by a goroutine of their own: when ctx ends,
// ServeStdio returns at once even if out is not being read.
func ServeStdio(ctx context.Context, rec *Recording, in io.Reader, out io.Writer) error {
	lines := make(chan lineRead)
	stop := make(chan struct{})
	defer close(stop)
	go readLines(bufio.NewReaderSize(in, 64<<10), lines, stop)
	w := newLineWriter(out)
	defer w.abandon()
	conn := rec.NewConn()
	for {
		var lr lineRead
		select {
		case <-ctx.Done():
			return nil
		case lr = <-lines:
		}
		switch {
		case errors.Is(lr.err, io.EOF):
			return w.close(ctx)
		case lr.err != nil:
			return fmt.Errorf("reading standard input: %w", lr.err)
		}
		var err error
		switch {
		case lr.tooLong:
			err = w.send(ctx, jsonrpc.AppendLine(nil, errorAnswer(nullID, mcp.CodeInvalidRequest, fmt.Sprintf("a line over %d bytes: skipped", MaxMessage), nil)))
		case len(bytes.TrimSpace(lr.line)) == 0:
			continue
		default:
			err = w.answers(ctx, conn, lr.line)
		}
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// lineRead is one line of standard input, or why reading ended.
type lineRead struct {
	line    []byte
	tooLong bool
	err     error
}

// readLines reads LF-ended lines of at most MaxMessage bytes; of a longer
// one only the fact is kept.
func readLines(r *bufio.Reader, out chan<- lineRead, stop <-chan struct{}) {
	for {
		var lr lineRead
		for {
			chunk, err := r.ReadSlice('\n')
			if !lr.tooLong && len(lr.line)+len(chunk) > MaxMessage+1 {
				lr.tooLong, lr.line = true, nil
			}
			if !lr.tooLong {
				lr.line = append(lr.line, chunk...)
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if err != nil && (len(lr.line) > 0 || lr.tooLong) {
				err = nil // the last line, without LF: EOF comes next
			}
			lr.err = err
			break
		}
		lr.line = trimLine(lr.line)
		select {
		case out <- lr:
		case <-stop:
			return
		}
		if lr.err != nil {
			return
		}
	}
}

// trimLine drops a line's LF or CR LF.
func trimLine(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
