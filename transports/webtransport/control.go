package webtransport

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
	wt "github.com/quic-go/webtransport-go"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/transports/flowstream"
)

// readControl reads the server's control frames until the stream or the
// session ends, reports each one and delivers the messages they hold.
func (t *Transport) readControl(str *wt.Stream) {
	defer t.loops.Done()
	for {
		frame, body, fields, err := flowstream.ReadControlFrame(str, t.cfg.MaxFrameSize)
		if err != nil {
			t.controlFailed(frame, fields, err)
			return
		}
		enc := t.encoding()
		f := &capture.Frame{
			Chan: capture.Channel{Kind: capture.Control}, Raw: frame, Size: len(frame),
			Fields: fields, Enc: enc,
		}
		msgs, batch, derr := jsonrpc.DecodeBatch(enc, body)
		switch {
		case derr != nil:
			f.Enc, f.Msg, f.Err = classifyUndecodable(enc, body, derr)
			if f.Enc != enc {
				msgs = nil // in the other encoding: refused whole
			}
		case !batch:
			f.Msg = msgs[0]
		}
		if derr == nil && enc == proto.EncJSON {
			f.Err = jsonrpc.CheckText(body)
		}
		t.report(capture.In, f)
		t.deliverDecoded(msgs)
	}
}

// deliverDecoded delivers what a control frame held: the messages that
// decoded, after the transport acted on them, and the messages carrying a
// Violation for the answers a broken frame names, straight to the engine.
func (t *Transport) deliverDecoded(msgs []*jsonrpc.Message) {
	for _, m := range msgs {
		if m.Violation == nil {
			t.receive(m)
		}
		t.deliverMessage(m)
	}
}

// encoding returns the encoding of control frames in force.
func (t *Transport) encoding() proto.Encoding {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.enc
}

// controlFailed ends the session after the control stream broke: a lying
// length prefix or a frame cut short leave no way to find the next frame.
func (t *Transport) controlFailed(frame []byte, fields []proto.Field, err error) {
	if len(frame) > 0 {
		ferr := err
		var se *wt.SessionError
		if errors.As(err, &se) && !se.Remote {
			ferr = &ClosedMidFrameError{Err: err}
		}
		t.report(capture.In, &capture.Frame{
			Chan: capture.Channel{Kind: capture.Control}, Raw: frame, Size: len(frame),
			Fields: fields, Enc: t.encoding(), Err: ferr,
		})
	}
	var tooLarge *flow.FrameTooLargeError
	switch {
	case errors.As(err, &tooLarge):
		t.fail(&client.ProtocolError{Msg: fmt.Sprintf(
			"the server sent a control frame whose length prefix claims %d bytes, over the %d-byte limit; "+
				"the control stream cannot be resynchronised, so the session was closed", tooLarge.Size, tooLarge.Max)})
	case errors.Is(err, io.EOF):
		t.fail(errControlClosed)
	case errors.Is(err, io.ErrUnexpectedEOF):
		t.fail(&client.ProtocolError{Msg: fmt.Sprintf("the control stream ended inside a frame: %v", err)})
	default:
		t.fail(fmt.Errorf("the MCP-Flow session ended: %w", sessionCause(err)))
	}
}

// sessionCause rewords the error of a read on a closed session.
func sessionCause(err error) error {
	var se *wt.SessionError
	if errors.As(err, &se) && se.Remote {
		return fmt.Errorf("the server closed the session (code %d: %q)", se.ErrorCode, se.Message)
	}
	var ae *quic.ApplicationError
	if errors.As(err, &ae) && ae.Remote {
		return fmt.Errorf("the server closed the QUIC connection (code %#x: %q)", uint64(ae.ErrorCode), ae.ErrorMessage)
	}
	var idle *quic.IdleTimeoutError
	if errors.As(err, &idle) {
		return fmt.Errorf("the server stopped answering (QUIC idle timeout): %w", err)
	}
	var h3 *http3.Error
	if errors.As(err, &h3) && !h3.Remote && h3.ErrorCode == http3.ErrCodeDatagramError && h3.ErrorMessage != "" {
		// webtransport-go ends a session whose CONNECT stream broke with a
		// local H3_DATAGRAM_ERROR that holds the real cause as text only.
		return fmt.Errorf("the connection to the server broke (%s)", h3.ErrorMessage)
	}
	return err
}

// classifyUndecodable says what a body that failed to decode in enc is: a
// message in the other encoding (-32003 Encoding Mismatch, shown decoded)
// or garbage or a broken envelope (-32700, with the decoder's reason).
func classifyUndecodable(enc proto.Encoding, body []byte, derr error) (proto.Encoding, *jsonrpc.Message, error) {
	other := proto.EncJSON
	if enc == proto.EncJSON {
		other = proto.EncCBOR
	}
	if m, err := jsonrpc.Decode(other, body); err == nil {
		return other, m, &EncodingMismatchError{Negotiated: enc, Got: other}
	}
	return enc, nil, &DecodeError{Enc: enc, Err: derr}
}

// receive acts on what the transport itself must know of an incoming
// message before it goes on to the engine.
func (t *Transport) receive(m *jsonrpc.Message) {
	switch m.Kind() {
	case jsonrpc.KindResult, jsonrpc.KindError:
		t.receiveResponse(m)
	case jsonrpc.KindNotification:
		switch m.Method {
		case MethodStreamError:
			t.receiveStreamError(m.Params)
		case MethodShutdown:
			t.serverShutdown()
		}
	}
}

// receiveResponse records the streams a result refers to, before the
// engine sees the response.
func (t *Transport) receiveResponse(m *jsonrpc.Message) {
	if m.ID == nil {
		return
	}
	id, ok := FlowRequestID(*m.ID)
	if !ok {
		return
	}
	refs := streamRefs(m.Result)
	if t.table.answered(id, refs) {
		for _, ref := range refs {
			if ref.Size != nil {
				capture.Note(t.cfg.Sink, capture.StreamSized{Key: t.streamKey(id, ref.StreamTag), Size: *ref.Size})
			}
		}
	}
}

// applyNegotiation switches to the encoding the engine settled from the
// initialize result (client.Traits.Negotiated). The engine calls it while
// the result is being delivered, so the next control frame is read in it.
func (t *Transport) applyNegotiation(n Negotiation) {
	enc, ok := encodingByName(n.Encoding)
	if !ok { // not one of Config.Encodings, which New checked
		t.fail(&client.ProtocolError{Msg: fmt.Sprintf("the engine settled the encoding %q, which mcpscope's MCP-Flow transport does not speak", n.Encoding)})
		return
	}
	t.mu.Lock()
	t.enc, t.nego, t.negotiated = enc, n, true
	t.initRTT = time.Since(t.initSent)
	t.mu.Unlock()
	t.states.move(StateReady, fmt.Sprintf("initialize result (encoding %s)", n.Encoding), StateInitializing)
}

// receiveStreamError records the server's $/streamError.
func (t *Transport) receiveStreamError(params json.RawMessage) {
	var p StreamErrorParams
	if json.Unmarshal(params, &p) != nil {
		return
	}
	if err := t.table.remoteError(p); err != nil {
		t.mark(t.streamKey(p.RequestID, p.StreamTag), capture.StreamError, err)
	}
}
