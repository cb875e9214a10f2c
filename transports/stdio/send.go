package stdio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Send writes m as one LF-terminated line and reports it as an Out frame.
// Concurrent calls never interleave. If ctx is cancelled while the line is
// half written, the rest goes out before the next line, so framing stays
// intact; if ctx's deadline passes instead, the server stopped reading and
// every later Send fails at once (conn.StalledError). An answer's
// deadline counts from its turn to write, not from when it began waiting
// behind others that the server takes (see takeTurn).
// After the server died, Send returns a *client.ConnectionError wrapping Err;
// after Close, client.ErrClosed.
func (t *Transport) Send(ctx context.Context, m *jsonrpc.Message) error {
	if m == nil {
		return errors.New("cannot send a nil message")
	}
	line, err := encodeLine(m)
	if err != nil {
		return fmt.Errorf("cannot encode the %s: %w", describe(m), err)
	}
	if err := t.life.Writable(); err != nil {
		return err
	}
	ctx, giveTurn, err := t.takeTurn(ctx, m)
	if err != nil {
		return err
	}
	defer giveTurn()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sending the %s was cancelled: %w", describe(m), err)
	}
	if stall := t.out.Stalled(); stall != nil {
		return fmt.Errorf("cannot send the %s: %w", describe(m), stall)
	}

	// Reported before the write, so that the capture never shows an answer
	// ahead of its request; a failed write adds a frame that says so.
	t.report(capture.Out, &capture.Frame{
		Chan: capture.Channel{Kind: capture.Control}, Raw: line, Size: len(line),
		Fields: jsonrpc.LineFields(line), Enc: proto.EncJSON, Msg: m,
	})
	werr := t.out.Write(ctx, t.stdin, line)
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
func encodeLine(m *jsonrpc.Message) ([]byte, error) {
	body := bytes.TrimRight(m.Raw, " \t\r\n")
	if len(body) == 0 || bytes.ContainsAny(body, "\r\n") {
		line, err := m.AppendJSON(make([]byte, 0, encodedSize(m)))
		if err != nil {
			return nil, err
		}
		return append(line, '\n'), nil
	}
	return jsonrpc.AppendLine(make([]byte, 0, len(body)+1), body), nil
}

// encodedSize is room enough for most encodings of m and its LF: its
// params and result, and the envelope around them.
func encodedSize(m *jsonrpc.Message) int {
	return len(m.Params) + len(m.Result) + len(m.Method) + 64
}

// brokenPipe turns a failed write into the connection's end: it waits a
// little for the server's exit to be known, so the error carries the exit
// status and stderr tail.
func (t *Transport) brokenPipe(werr error) error {
	timer := time.NewTimer(t.cfg.ShutdownGrace)
	defer timer.Stop()
	select {
	case <-t.life.Done():
		return t.life.Gone()
	case <-timer.C:
		return &client.ConnectionError{Err: fmt.Errorf("writing to the server's stdin: %w", werr)}
	}
}
