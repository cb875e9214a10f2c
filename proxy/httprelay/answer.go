package httprelay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/sse"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/proxy"
)

// toHost is where the messages of an answer go: the carrier of the host's
// side, and raw for the bytes of the answer that are no message (a
// priming event, a comment, an error page), which reach the host as they
// came (or not at all, for the stdio bridge).
type toHost interface {
	proxy.Carrier
	raw(ctx context.Context, b []byte) error
	// carry writes a message too long to hold to the host as it is read
	// from src, and says why writing (werr) or reading (rerr) stopped.
	carry(ctx context.Context, src io.Reader) (werr, rerr error)
}

// answer is one response of the server being relayed toward the host.
type answer struct {
	sess *proxy.Session
	tap  tap
	conn string
	// session is the host's session the answer belongs to (the
	// exchange's): proxy.Hop.Session.
	session string
	rsp     *http.Response
	host    toHost
	// endpoint, when set, gives the bytes that carry a legacy stream's
	// endpoint event on to the host (nil: nothing goes).
	endpoint func(raw []byte, data string) []byte
	// lastID is told each event's id, for a resumption.
	lastID func(string)
	// lines: the host reads lines (the stdio bridge), so a message's
	// frame is the line it gets, not the event or the body it came in.
	lines bool
}

// errBroken says the server's answer broke before its end: the host's
// connection is broken too, as it would be without the proxy.
var errBroken = errors.New("the server's answer broke off")

// isStream says whether rsp is an event stream.
func isStream(rsp *http.Response) bool { return mediaType(rsp.Header) == "text/event-stream" }

// mediaType is the Content-Type's media type, lower case, or "".
func mediaType(h http.Header) string {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return mt
}

// relay reads the body of a.rsp and carries it to the host: an event
// stream event by event, a JSON body as one message, anything else as it
// came. It returns errBroken (wrapped) when the body broke off.
func (a *answer) relay(ctx context.Context) error {
	if cause := httphead.UnaskedEncoding(a.rsp.Header); cause != nil {
		a.tap.note(capture.In, a.conn, cause.Error()+"; passed on unread", nil)
		return a.copyRaw(ctx)
	}
	switch {
	case isStream(a.rsp):
		return a.stream(ctx)
	case mediaType(a.rsp.Header) == "application/json":
		return a.json(ctx)
	}
	return a.other(ctx)
}

// json relays a JSON body as one message (a batch too).
// One past maxBody is carried on as it is read, not held (carryLong).
func (a *answer) json(ctx context.Context) error {
	b, long, err := readBody(a.rsp.Body)
	if long {
		return a.carryLong(ctx, b)
	}
	if err != nil {
		a.tap.note(capture.In, a.conn, "the answer broke off: "+err.Error(), err)
		if len(b) > 0 {
			a.tap.body(capture.In, a.conn, b, nil, len(b))
			_ = a.host.raw(ctx, b)
		}
		return fmt.Errorf("%w: %v", errBroken, err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	return a.sess.Relay(ctx, a.hop(b, b, nil), a.host)
}

// other passes a body that is no message (an error page, a 202's text) as
// it came, captured.
func (a *answer) other(ctx context.Context) error {
	b, long, err := readBody(a.rsp.Body)
	if long {
		return a.otherLong(ctx, b)
	}
	if len(b) > 0 {
		a.tap.body(capture.In, a.conn, b, nil, len(b))
		if werr := a.host.raw(ctx, b); werr != nil {
			return werr
		}
	}
	if err != nil {
		a.tap.note(capture.In, a.conn, "the answer broke off: "+err.Error(), err)
		return fmt.Errorf("%w: %v", errBroken, err)
	}
	return nil
}

// copyRaw passes a body the relay cannot read (an encoding it did not
// ask for) byte for byte.
func (a *answer) copyRaw(ctx context.Context) error {
	buf := make([]byte, 32<<10)
	for {
		n, err := a.rsp.Body.Read(buf)
		if n > 0 {
			if werr := a.host.raw(ctx, buf[:n]); werr != nil {
				return werr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: %v", errBroken, err)
		}
	}
}

// stream relays an event stream event by event: an event that carries a
// message goes through the session's Relay (Raw: the event's bytes, Body:
// its data), another goes on as it came; each reaches the host as soon as
// it arrives. An event past maxBody is carried on as it is read, not held
// (carryLongEvent), and the events after it are read on.
func (a *answer) stream(ctx context.Context) error {
	src := io.Reader(a.rsp.Body)
	for src != nil {
		var err error
		if src, err = a.events(ctx, src); err != nil {
			return err
		}
	}
	return nil
}

// events relays the events of src until its end (nil, nil) or an event
// past maxBody, which it carries on; it then returns what follows that
// event, to be read as a stream of its own.
func (a *answer) events(ctx context.Context, src io.Reader) (io.Reader, error) {
	ks := &keptStream{src: src}
	rd := sse.NewReader(ks, sse.Limits{MaxLine: maxBody, MaxEvent: maxBody, MaxRaw: maxBody})
	// The bytes between events (a byte order mark, blank lines) reach the
	// host as they came, when they came: the stream passes unchanged.
	var skipErr error
	var consumed int64
	rd.OnSkip(func(b []byte) {
		consumed += int64(len(b))
		if skipErr == nil {
			skipErr = a.host.raw(ctx, b)
		}
	})
	for {
		ev, err := rd.Next()
		if skipErr != nil {
			return nil, skipErr
		}
		var cut *sse.CutError
		var limit *sse.LimitError
		switch {
		case errors.Is(err, io.EOF):
			return nil, nil
		case errors.As(err, &cut):
			raw := bytes.Clone(ev.Raw)
			a.tap.event(a.conn, raw, ev.Length, fmt.Errorf("the stream ended inside this event: %w", err))
			_ = a.host.raw(ctx, raw)
			return nil, fmt.Errorf("%w: %v", errBroken, err)
		case errors.As(err, &limit) && !a.lines:
			ks.consumed(consumed)
			return a.carryLongEvent(ctx, ks)
		case err != nil:
			a.tap.note(capture.In, a.conn, "the stream broke off: "+err.Error(), err)
			return nil, fmt.Errorf("%w: %v", errBroken, err)
		}
		consumed = ev.Offset + ev.Length
		ks.consumed(consumed)
		if a.lastID != nil {
			a.lastID(ev.ID)
		}
		if err := a.event(ctx, ev.Clone()); err != nil {
			return nil, err
		}
	}
}

// event carries one event of the stream on.
func (a *answer) event(ctx context.Context, ev sse.Event) error {
	capture.Note(a.sess.Tap(), capture.SSEEventSeen{Conn: a.conn, Size: ev.Length, LastID: ev.ID})
	if ev.Type == "endpoint" && a.endpoint != nil {
		a.tap.event(a.conn, ev.Raw, ev.Length, nil)
		out := a.endpoint(ev.Raw, ev.Data())
		if out == nil {
			return nil
		}
		return a.host.raw(ctx, out)
	}
	message := ev.Dispatch && (ev.Type == "" || ev.Type == "message") && len(bytes.TrimSpace(ev.DataBytes)) > 0
	if !message {
		a.tap.event(a.conn, ev.Raw, ev.Length, nil)
		return a.host.raw(ctx, ev.Raw)
	}
	return a.sess.Relay(ctx, a.hop(ev.Raw, ev.DataBytes, httphead.SSEEventFields(ev.Raw)), a.host)
}

// hop is the message body on its way to the host in raw, annotated by
// fields (nil: the whole of it is the body). To a host that reads lines
// it is the line it gets.
func (a *answer) hop(raw, body []byte, fields []proto.Field) proxy.Hop {
	if a.lines {
		body = line(body)
		raw, fields = body, nil
	}
	if fields == nil {
		fields = []proto.Field{{Offset: 0, Len: len(raw), Name: "body", Kind: proto.FieldBody}}
	}
	return proxy.Hop{Dir: capture.In, Conn: a.conn, Session: a.session, Chan: capture.Channel{Kind: capture.Control}, Raw: raw, Body: body,
		Enc: proto.EncJSON, Fields: fields}
}

// line is body on one line, as stdio carries it: JSON compacted when it
// spans lines, other bytes with their line ends made spaces.
func line(body []byte) []byte {
	if !bytes.ContainsAny(body, "\r\n") {
		return body
	}
	var b bytes.Buffer
	if json.Compact(&b, body) == nil {
		return b.Bytes()
	}
	out := bytes.Clone(body)
	for i, c := range out {
		if c == '\r' || c == '\n' {
			out[i] = ' '
		}
	}
	return out
}
