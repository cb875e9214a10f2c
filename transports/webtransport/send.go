package webtransport

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Send frames m on the control stream and reports it as an Out frame. The
// first message must be the initialize request: it goes out in JSON (the
// engine puts the offer of Config.Encodings in it, see Describe). Later
// messages use the negotiated encoding (JSON until the engine settles it
// from the initialize result).
// Concurrent calls never interleave; a frame cut short by a cancelled ctx
// is finished before the next one. A frame whose ctx deadline passes before
// it is whole (the server grants no flow-control credit: it stopped
// reading) stalls the control stream, and every later Send fails at once
// (conn.StalledError). After Close it returns client.ErrClosed; once the
// session has gone, a *client.ConnectionError.
func (t *Transport) Send(ctx context.Context, m *jsonrpc.Message) error {
	if err := t.writable(); err != nil {
		return err
	}
	return t.send(ctx, m)
}

// send is Send without the closing check, for $/shutdown.
func (t *Transport) send(ctx context.Context, m *jsonrpc.Message) error {
	if m == nil {
		return errors.New("cannot send a nil message")
	}
	select {
	case t.wslot <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("sending the %s was cancelled: %w", describe(m), ctx.Err())
	case <-t.life.Done():
		return t.life.Gone()
	}
	defer func() { <-t.wslot }()
	if stall := t.out.Stalled(); stall != nil {
		return fmt.Errorf("cannot send the %s: %w", describe(m), stall)
	}

	enc, first, err := t.prepare(m)
	if err != nil {
		return err
	}
	frame, err := t.encodeFrame(m, enc)
	if err != nil {
		return err
	}
	if id, ok := requestID(m); ok {
		t.table.sent(id)
	}
	if first {
		// Before the write: the answer may be read before Write returns.
		t.mu.Lock()
		t.sentFirst, t.initSent = true, time.Now()
		t.mu.Unlock()
		t.states.move(StateInitializing, "the client sent initialize (JSON)", StateControlStreamOpened)
	}
	// Reported before the write too, so that the capture never shows an
	// answer ahead of its request.
	_, _, fields, _ := flow.ParseControlFrame(frame, len(frame))
	t.report(capture.Out, &capture.Frame{
		Chan: capture.Channel{Kind: capture.Control}, Raw: frame, Size: len(frame),
		Fields: fields, Enc: enc, Msg: m,
	})
	werr := t.writeFrame(ctx, frame)
	if werr == nil {
		return nil
	}
	t.report(capture.Out, &capture.Frame{
		Chan: capture.Channel{Kind: capture.Control}, Enc: enc,
		Err: fmt.Errorf("the %s above was not sent whole: %w", describe(m), werr),
	})
	if ctx.Err() != nil {
		return werr
	}
	select {
	case <-t.life.Done():
		return t.life.Gone()
	default:
		return &client.ConnectionError{Err: werr}
	}
}

// prepare picks the encoding of m and, for the first message, checks that
// it is initialize, which goes out in JSON. The write slot is held.
func (t *Transport) prepare(m *jsonrpc.Message) (proto.Encoding, bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sentFirst {
		return t.enc, false, nil
	}
	if m.Kind() != jsonrpc.KindRequest || m.Method != mcp.MethodInitialize {
		return 0, false, fmt.Errorf("MCP-Flow opens the control stream with the initialize request; refusing to send the %s first", describe(m))
	}
	return proto.EncJSON, true, nil
}

// encodeFrame encodes m in enc and frames it, within the server's
// maxFrameSize once it is known.
func (t *Transport) encodeFrame(m *jsonrpc.Message, enc proto.Encoding) ([]byte, error) {
	body, err := jsonrpc.Encode(enc, m)
	if err != nil {
		return nil, fmt.Errorf("cannot encode the %s in %s: %w", describe(m), enc, err)
	}
	t.mu.Lock()
	limit := t.nego.MaxFrameSize
	t.mu.Unlock()
	frame, err := flow.EncodeControlFrame(body, limit)
	if err != nil {
		return nil, fmt.Errorf("cannot send the %s: %w", describe(m), err)
	}
	return frame, nil
}

// requestID returns the MCP-Flow id of a request, when it has one.
func requestID(m *jsonrpc.Message) (uint32, bool) {
	if m.Kind() != jsonrpc.KindRequest {
		return 0, false
	}
	return FlowRequestID(*m.ID)
}

// writable says whether Send may write at all: the lifecycle allows it and
// the control stream is open.
func (t *Transport) writable() error {
	if err := t.life.Writable(); err != nil {
		return err
	}
	t.mu.Lock()
	control := t.control
	t.mu.Unlock()
	if control == nil {
		return errors.New("cannot send: the MCP-Flow control stream is not open yet")
	}
	return nil
}

// writeFrame writes what is left of an interrupted frame, then frame. A
// frame cut short by ctx keeps its rest for the next one. The write slot is
// held.
func (t *Transport) writeFrame(ctx context.Context, frame []byte) error {
	t.mu.Lock()
	str := t.control
	t.mu.Unlock()
	return t.out.Write(ctx, str, frame)
}

// describe names a message in error sentences: "request initialize",
// "notification $/cancel", "result".
func describe(m *jsonrpc.Message) string {
	if m.Method != "" {
		return m.Kind().String() + " " + m.Method
	}
	return m.Kind().String()
}
