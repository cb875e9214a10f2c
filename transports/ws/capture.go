package ws

import (
	"fmt"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Directions of frames, named for this file's readers.
const (
	outgoing = capture.Out
	incoming = capture.In
)

// report stamps f and hands it to the sink; it returns the frame's Seq (0
// when the sink did not hold it).
func (t *Transport) report(dir capture.Dir, f *capture.Frame) uint64 {
	f.Time = time.Now()
	f.Dir = dir
	f.Conn = t.cfg.Conn
	if f.Size == 0 {
		f.Size = len(f.Raw)
	}
	return t.cfg.Sink.Append(f)
}

// reportRequest captures the upgrade request line and headers,
// credentials redacted unless asked.
func (t *Transport) reportRequest(req *http.Request) {
	h := req.Header.Clone()
	if h.Get("Host") == "" {
		h.Set("Host", req.URL.Host)
	}
	raw, fields := httphead.HTTPRequestHead(req.Method, t.requestTarget(req), httphead.CapturedHeaders(h, t.cfg.NoRedact))
	t.report(outgoing, &capture.Frame{Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Fields: fields, Enc: proto.EncText})
}

// reportResponse captures the upgrade answer's status line and headers.
func (t *Transport) reportResponse(rsp *http.Response) {
	raw, fields := httphead.HTTPResponseHead(rsp.Proto, rsp.StatusCode, httphead.CapturedHeaders(rsp.Header, t.cfg.NoRedact))
	t.report(incoming, &capture.Frame{Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Fields: fields, Enc: proto.EncText})
}

// reportNote captures a line saying what happened without bytes of its
// own on the wire.
func (t *Transport) reportNote(dir capture.Dir, text string) {
	raw := []byte(text)
	t.report(dir, &capture.Frame{
		Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Enc: proto.EncText,
		Fields: []proto.Field{{Offset: 0, Len: len(raw), Name: "note", Value: text, Kind: proto.FieldHeader}},
	})
}

// reportSubprotocol says whether the server chose the subprotocol offered.
func (t *Transport) reportSubprotocol() {
	if len(t.cfg.Mode.Subprotocols()) == 0 {
		return
	}
	t.mu.Lock()
	chosen := t.chosen
	t.mu.Unlock()
	if chosen == "" {
		t.reportNote(incoming, fmt.Sprintf("the server chose no subprotocol (offered %q)", Subprotocol))
		return
	}
	t.reportNote(incoming, fmt.Sprintf("the server chose the subprotocol %q", chosen))
}

// reportSent captures one text message the client sends; m is what it
// carries.
func (t *Transport) reportSent(raw []byte, m *jsonrpc.Message) {
	t.report(outgoing, &capture.Frame{Chan: capture.Channel{Kind: capture.Control}, Raw: raw, Enc: proto.EncJSON, Msg: m})
}

// reportControl captures a ping or a pong and its payload.
func (t *Transport) reportControl(dir capture.Dir, kind string, payload []byte) {
	raw := append([]byte(kind+" "), payload...)
	t.report(dir, &capture.Frame{
		Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Enc: proto.EncText,
		Fields: []proto.Field{
			{Offset: 0, Len: len(kind), Name: "opcode", Value: kind, Kind: proto.FieldHeader},
			{Offset: len(kind) + 1, Len: len(payload), Name: "payload", Value: fmt.Sprintf("%d bytes", len(payload)), Kind: proto.FieldBody},
		},
	})
}

// reportClose captures a close frame: its code and reason.
func (t *Transport) reportClose(dir capture.Dir, code websocket.StatusCode, reason string) {
	t.reportNote(dir, fmt.Sprintf("close %d (%s): %s", int(code), closeWords(code), reason))
}

// closeWords names a close code (RFC 6455 §7.4.1).
func closeWords(code websocket.StatusCode) string {
	switch code {
	case websocket.StatusNormalClosure:
		return "normal closure"
	case websocket.StatusGoingAway:
		return "going away"
	case websocket.StatusProtocolError:
		return "protocol error"
	case websocket.StatusUnsupportedData:
		return "unsupported data"
	case websocket.StatusNoStatusRcvd:
		return "no status"
	case websocket.StatusAbnormalClosure:
		return "abnormal closure"
	case websocket.StatusInvalidFramePayloadData:
		return "invalid payload data"
	case websocket.StatusPolicyViolation:
		return "policy violation"
	case websocket.StatusMessageTooBig:
		return "message too big"
	case websocket.StatusInternalError:
		return "internal error"
	case websocket.StatusServiceRestart:
		return "service restart"
	case websocket.StatusTryAgainLater:
		return "try again later"
	}
	return "unknown code"
}

// requestTarget is the request's path and query as captured: secret query
// values redacted unless asked not to.
func (t *Transport) requestTarget(req *http.Request) string {
	if t.cfg.NoRedact {
		return req.URL.RequestURI()
	}
	return httphead.RedactQuery(req.URL.RequestURI())
}
