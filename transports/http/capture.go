package mcphttp

import (
	"fmt"
	"net/http"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// report stamps f and hands it to the sink; it returns the frame's Seq
// (0 when the sink did not hold it).
func (t *Transport) report(dir capture.Dir, conn string, f *capture.Frame) uint64 {
	f.Time = time.Now()
	f.Dir = dir
	f.Conn = conn
	if f.Size == 0 {
		f.Size = len(f.Raw)
	}
	return t.cfg.Sink.Append(f)
}

// headers turns h into header lines, credentials redacted unless the user
// asked to see them.
func (t *Transport) headers(h http.Header) []httphead.HTTPHeader {
	return httphead.CapturedHeaders(h, t.cfg.NoRedact)
}

// reportRequest captures the request line and headers of req, with the
// Host it goes to.
func (t *Transport) reportRequest(conn string, req *http.Request) {
	lines := t.headers(req.Header)
	if req.Header.Get("Host") == "" {
		host := req.Host
		if host == "" {
			host = req.URL.Host
		}
		lines = httphead.SetHeaderLine(lines, "Host", host)
	}
	raw, fields := httphead.HTTPRequestHead(req.Method, t.requestTarget(req), lines)
	t.report(capture.Out, conn, &capture.Frame{Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Fields: fields, Enc: proto.EncText})
}

// reportResponse captures the status line and headers of rsp.
func (t *Transport) reportResponse(conn string, rsp *http.Response) {
	raw, fields := httphead.HTTPResponseHead(rsp.Proto, rsp.StatusCode, t.headers(rsp.Header))
	t.report(capture.In, conn, &capture.Frame{Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Fields: fields, Enc: proto.EncText})
}

// reportNote captures a line that says what the client did without bytes
// on the wire: a stream closed to cancel a request, a fallback.
func (t *Transport) reportNote(dir capture.Dir, conn, text string) {
	raw := []byte(text)
	t.report(dir, conn, &capture.Frame{
		Chan: capture.Channel{Kind: capture.HTTP}, Raw: raw, Enc: proto.EncText,
		Fields: []proto.Field{{Offset: 0, Len: len(raw), Name: "note", Value: text, Kind: proto.FieldHeader}},
	})
}

// reportBody captures a JSON body sent or received and returns the
// messages it holds (received bodies only: what to deliver).
func (t *Transport) reportBody(dir capture.Dir, conn string, body []byte, sent *jsonrpc.Message) []*jsonrpc.Message {
	f := &capture.Frame{
		Chan: capture.Channel{Kind: capture.Control}, Raw: body, Enc: proto.EncJSON,
		Fields: []proto.Field{{Offset: 0, Len: len(body), Name: "body", Kind: proto.FieldBody}},
	}
	if sent != nil {
		f.Msg = sent
		t.report(dir, conn, f)
		return nil
	}
	msgs := decodeInto(f, body, "the body")
	t.report(dir, conn, f)
	return msgs
}

// decodeInto decodes the JSON-RPC message(s) of data, what names it in
// the error ("the body", "the event's data"), into f: its message when
// there is one, its decode error or text warning. It returns what to
// deliver, the messages proto could still read of a broken batch included.
func decodeInto(f *capture.Frame, data []byte, what string) []*jsonrpc.Message {
	msgs, batch, err := jsonrpc.DecodeJSON(data)
	switch {
	case err != nil:
		f.Err = fmt.Errorf("%s is not a JSON-RPC message: %w", what, err)
	case !batch:
		f.Msg = msgs[0]
		f.Err = jsonrpc.CheckText(data)
	}
	return msgs
}

// requestTarget is the request's path and query as captured: secret query
// values redacted unless asked not to.
func (t *Transport) requestTarget(req *http.Request) string {
	if t.cfg.NoRedact {
		return req.URL.RequestURI()
	}
	return httphead.RedactQuery(req.URL.RequestURI())
}
