package ws

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// read delivers every message until the connection ends, then records
// why: the close code and reason, a message over the limit, a network
// failure.
func (t *Transport) read(c *websocket.Conn) {
	defer t.wg.Done()
	var size [2]int // the last message's size, by type
	for {
		typ, data, err := readMessage(t.ctx, c, &size, t.spares)
		if err != nil {
			if r := t.refusal(err); r != nil {
				// The server's frame is refused: mcpscope closes first.
				t.reportNote(incoming, r.Head)
				t.reportClose(outgoing, r.Code, r.Wire)
				t.closeWith(c, r.Code, r.Wire)
			}
			// The engine fails every call in flight with this cause.
			t.life.End(t.endCause(err), nil)
			t.cancel()
			_ = c.CloseNow()
			return
		}
		switch {
		case t.cfg.Mode == ModeGateway && typ == websocket.MessageBinary:
			t.readGatewayChunk(data)
		case t.cfg.Mode == ModeGateway:
			t.readGatewayText(data)
		case typ == websocket.MessageBinary:
			t.report(incoming, &capture.Frame{Chan: capture.Channel{Kind: capture.Control}, Raw: data, Enc: proto.EncBinary,
				Err: fmt.Errorf("a binary message of %d bytes: the %s transport carries text only; ignored", len(data), t.dialect())})
		case t.cfg.Mode == ModeTools:
			t.readTool(data)
		default:
			t.readJSONRPC(data)
		}
	}
}

// readHintMax bounds the buffer readMessage allocates before it knows a
// message's size.
const readHintMax = 1 << 20

// readMessage reads one whole message into a buffer of its own, sized by
// the last message of its type (one byte more, so that reading its end
// needs no growth): a stream's chunks, all of one size, take one
// allocation each and no copy, where websocket.Conn.Read (io.ReadAll)
// grows a buffer from 512 bytes, copying, for every message. The read
// limit holds as with Read; a hint over readHintMax is not taken, so one
// large message does not make every later one cost as much. A binary
// message is read into one of spares (nil: none) when one is large enough.
func readMessage(ctx context.Context, c *websocket.Conn, size *[2]int, spares *chunkBuffers) (websocket.MessageType, []byte, error) {
	typ, r, err := c.Reader(ctx)
	if err != nil {
		return 0, nil, err
	}
	last := &size[typ&1]
	room := max(min(*last, readHintMax), 511) + 1
	var buf []byte
	if typ == websocket.MessageBinary && spares != nil {
		buf = spares.get(room)
	}
	if buf == nil {
		buf = make([]byte, 0, room)
	}
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, len(buf))
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, nil, err
		}
	}
	*last = len(buf)
	return typ, buf, nil
}

// readJSONRPC decodes one text message of an MCP session and delivers
// what it holds; a message that is not JSON-RPC is shown with its error.
func (t *Transport) readJSONRPC(data []byte) {
	f := &capture.Frame{Chan: capture.Channel{Kind: capture.Control}, Raw: data, Enc: proto.EncJSON}
	msgs, batch, err := jsonrpc.DecodeJSON(data)
	switch {
	case err != nil:
		f.Err = fmt.Errorf("a text message that is not JSON-RPC: %w", err)
	case !batch:
		f.Msg = msgs[0]
		f.Err = jsonrpc.CheckText(data)
	}
	t.report(incoming, f)
	for _, m := range msgs {
		t.deliver(m)
	}
}

// dialect names the mode in messages.
func (t *Transport) dialect() string {
	return t.cfg.Mode.String()
}

// endCause words why the reader stopped; nil after the client's own
// Close. The cause is the transport's reason, as Err returns it: the
// engine and Send wrap it in the one client.ConnectionError.
func (t *Transport) endCause(err error) error {
	if t.life.Closing() {
		return nil
	}
	if r := t.refusal(err); r != nil {
		return fmt.Errorf("%s: mcpscope closed the WebSocket with %d (%s)", r.Reason, int(r.Code), closeWords(r.Code))
	}
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		t.reportClose(incoming, ce.Code, ce.Reason)
		return closeError(ce.Code, ce.Reason)
	}
	if errors.Is(err, websocket.ErrMessageTooBig) {
		t.reportClose(outgoing, websocket.StatusMessageTooBig, "message too big")
		return fmt.Errorf("the server sent a message over --max-frame-size (%d bytes): mcpscope closed the WebSocket with 1009 (message too big)", t.cfg.MaxFrameSize)
	}
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed):
		return errors.New("the server dropped the WebSocket without a close frame (1006 abnormal closure)")
	case errors.Is(err, context.Canceled):
		return nil
	}
	return fmt.Errorf("reading the WebSocket: %w", err)
}

// closeError is the error of a close frame from the server.
func closeError(code websocket.StatusCode, reason string) error {
	msg := fmt.Sprintf("the server closed the WebSocket with %d (%s)", int(code), closeWords(code))
	if reason != "" {
		msg += ": " + reason
	}
	return errors.New(msg)
}

// refusal is the frame guard's refusal that err is, or nil.
func (t *Transport) refusal(err error) *frameRefusal {
	var r *frameRefusal
	if !errors.As(err, &r) {
		return nil
	}
	return r
}
