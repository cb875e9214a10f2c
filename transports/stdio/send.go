package stdio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
)

// Send writes m as one LF-terminated line and reports it as an Out frame.
// Concurrent calls never interleave. If ctx ends while the line is half
// written, the rest goes out before the next line, so framing stays intact.
// After the server died, Send returns a *client.ConnectionError wrapping Err;
// after Close, client.ErrClosed.
func (t *Transport) Send(ctx context.Context, m *proto.Message) error {
	if m == nil {
		return errors.New("cannot send a nil message")
	}
	line, err := encodeLine(m)
	if err != nil {
		return fmt.Errorf("cannot encode the %s: %w", describe(m), err)
	}
	if err := t.writable(); err != nil {
		return err
	}
	select {
	case t.wslot <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("sending the %s was cancelled: %w", describe(m), ctx.Err())
	case <-t.done:
		return t.goneErr()
	}
	defer func() { <-t.wslot }()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sending the %s was cancelled: %w", describe(m), err)
	}

	// Reported before the write, so that the capture never shows an answer
	// ahead of its request; a failed write adds a frame that says so.
	t.report(capture.Out, &capture.Frame{
		Chan: capture.Channel{Kind: capture.Control}, Raw: line, Size: len(line),
		Fields: proto.LineFields(line), Enc: proto.EncJSON, Msg: m,
	})
	werr := t.writeLine(ctx, line)
	if werr == nil {
		return nil
	}
	t.report(capture.Out, &capture.Frame{
		Chan: capture.Channel{Kind: capture.Control}, Enc: proto.EncJSON,
		Err: fmt.Errorf("the %s above was not sent whole: %w", describe(m), werr),
	})
	if ctx.Err() != nil {
		return werr
	}
	return t.brokenPipe(werr)
}

// encodeLine returns the wire line of m: its Raw body when it has one on a
// single line, its compact JSON encoding otherwise, followed by LF.
func encodeLine(m *proto.Message) ([]byte, error) {
	body := bytes.TrimRight(m.Raw, " \t\r\n")
	if len(body) == 0 || bytes.ContainsAny(body, "\r\n") {
		var err error
		if body, err = m.EncodeJSON(); err != nil {
			return nil, err
		}
	}
	return proto.AppendLine(make([]byte, 0, len(body)+1), body), nil
}

// writable says whether Send may write at all.
func (t *Transport) writable() error {
	t.mu.Lock()
	started, closing := t.started, t.closing
	t.mu.Unlock()
	switch {
	case closing:
		return client.ErrClosed
	case !started:
		return errors.New("cannot send: the stdio transport is not started")
	}
	select {
	case <-t.done:
		return t.goneErr()
	default:
		return nil
	}
}

// goneErr is Send's error once the connection has gone.
func (t *Transport) goneErr() error {
	t.mu.Lock()
	closing, err := t.closing, t.err
	t.mu.Unlock()
	return client.GoneError(closing, err, "the server is gone")
}

// brokenPipe turns a failed write into the connection's end: it waits a
// little for the server's exit to be known, so the error carries the exit
// status and stderr tail.
func (t *Transport) brokenPipe(werr error) error {
	timer := time.NewTimer(t.cfg.ShutdownGrace)
	defer timer.Stop()
	select {
	case <-t.done:
		return t.goneErr()
	case <-timer.C:
		return &client.ConnectionError{Err: fmt.Errorf("writing to the server's stdin: %w", werr)}
	}
}

// writeLine writes what is left of an interrupted line, then line. A line
// cut short by ctx keeps its rest in pending.
func (t *Transport) writeLine(ctx context.Context, line []byte) error {
	if len(t.pending) > 0 {
		n, err := t.write(ctx, t.pending)
		t.pending = t.pending[n:]
		if err != nil {
			return fmt.Errorf("not sent: the rest of an earlier line could not be written: %w", err)
		}
	}
	n, err := t.write(ctx, line)
	if err == nil {
		return nil
	}
	if n > 0 && ctx.Err() != nil {
		t.pending = line[n:]
		return fmt.Errorf("sending was cancelled after %d of %d bytes; the rest goes out before the next message: %w", n, len(line), err)
	}
	return fmt.Errorf("writing to the server's stdin: %w", err)
}

// write writes b to stdin, giving up when ctx ends.
func (t *Transport) write(ctx context.Context, b []byte) (int, error) {
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		t.stdin.SetWriteDeadline(time.Unix(1, 0)) // a pipe that cannot take deadlines just blocks
		close(fired)
	})
	n, err := t.stdin.Write(b)
	if !stop() {
		<-fired
		t.stdin.SetWriteDeadline(time.Time{})
	}
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) && ctx.Err() != nil {
		err = ctx.Err()
	}
	return n, err
}
