package httprelay

import (
	"net/http"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/proxy"
)

// tap captures what the relay sees that is not a message it relays: the
// heads of requests and responses, notes, bodies that hold no message.
type tap struct {
	sess     *proxy.Session
	noRedact bool
}

// frame appends f stamped with the session's clock and returns its Seq.
func (t tap) frame(dir capture.Dir, conn string, f *capture.Frame) uint64 {
	f.Dir = dir
	return t.sess.CaptureOn(conn, f)
}

// request captures the head of req as it goes to the server, secrets
// redacted unless asked not to.
func (t tap) request(conn string, req *http.Request) {
	lines := httphead.CapturedHeaders(req.Header, t.noRedact)
	lines = httphead.SetHeaderLine(lines, "Host", req.URL.Host)
	target := req.URL.RequestURI()
	if !t.noRedact {
		target = httphead.RedactQuery(target)
	}
	raw, fields := httphead.HTTPRequestHead(req.Method, target, lines)
	t.frame(capture.Out, conn, &capture.Frame{Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Fields: fields, Enc: proto.EncText})
}

// response captures the head of rsp as the server sent it.
func (t tap) response(conn string, rsp *http.Response) {
	raw, fields := httphead.HTTPResponseHead(rsp.Proto, rsp.StatusCode, httphead.CapturedHeaders(rsp.Header, t.noRedact))
	t.frame(capture.In, conn, &capture.Frame{Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Fields: fields, Enc: proto.EncText})
}

// note captures a line that says what happened without bytes of its own
// on the wire (an unreachable server, a stream that broke), with err as
// the frame's error when it is one.
func (t tap) note(dir capture.Dir, conn, text string, err error) {
	raw := []byte(text)
	t.frame(dir, conn, &capture.Frame{
		Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Enc: proto.EncText, Err: err,
		Fields: []proto.Field{{Offset: 0, Len: len(raw), Name: "note", Value: text, Kind: proto.FieldHeader}},
	})
}

// body captures bytes of an answer that hold no message (an error page,
// a priming event, a comment) as they came.
func (t tap) body(dir capture.Dir, conn string, raw []byte, fields []proto.Field, size int) uint64 {
	if fields == nil {
		fields = []proto.Field{{Offset: 0, Len: len(raw), Name: "body", Kind: proto.FieldBody}}
	}
	f := &capture.Frame{Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Fields: fields, Enc: proto.EncText, Size: size}
	if size > len(raw) {
		f.Kept = len(raw)
	}
	return t.frame(dir, conn, f)
}

// mark captures what the relay did to the traffic.
func (t tap) mark(dir capture.Dir, conn string, m proxy.Mark) {
	t.sess.Mark(dir, conn, m)
}

// event captures an SSE event that carries no message (a priming event,
// a heartbeat, an event of another type) as it came.
func (t tap) event(conn string, raw []byte, size int64, err error) uint64 {
	f := &capture.Frame{Chan: capture.Channel{Kind: capture.Control}, Raw: raw, Size: int(size),
		Fields: httphead.SSEEventFields(raw), Enc: proto.EncText, Err: err}
	if int(size) > len(raw) {
		f.Kept = len(raw)
	}
	return t.frame(capture.In, conn, f)
}
