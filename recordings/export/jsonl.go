package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/recordings"
)

// The objects of the JSON Lines format, one a line; "kind" says which
// (docs/export-formats.md lists every field).
const (
	KindHeader      = "header"       // the recording's header, always first
	KindFrame       = "frame"        // a captured frame: its exact bytes and what they hold
	KindStreamMark  = "stream_mark"  // an execution stream's state
	KindStreamLabel = "stream_label" // what an execution stream is
	KindStreamSize  = "stream_size"  // the size a peer announced for a stream
	KindStreamRest  = "stream_rest"  // totals of a stream past the recording's cap
	KindSSEOpen     = "sse_open"     // an SSE stream's body started
	KindSSEEvent    = "sse_event"    // one event of an SSE stream
	KindSSEEnd      = "sse_end"      // an SSE stream ended
	KindLink        = "link"         // the transport and protocol era the session settled
	KindEnd         = "end"          // the session closed cleanly
)

// jsonHeader is the first object: the recording's header.
type jsonHeader struct {
	Kind string `json:"kind"`
	recordings.Header
}

// jsonFrame is one frame.
type jsonFrame struct {
	Kind        string       `json:"kind"`
	Seq         int64        `json:"seq"`
	LiveSeq     uint64       `json:"live_seq,omitempty"`
	Time        string       `json:"time"`
	Dir         string       `json:"dir"`
	Conn        string       `json:"conn"`
	Channel     string       `json:"channel"`
	ReqID       *uint32      `json:"req_id,omitempty"`
	Tag         *uint32      `json:"tag,omitempty"`
	DatagramCh  *uint8       `json:"datagram_channel,omitempty"`
	Size        int          `json:"size"`
	Kept        *int         `json:"kept,omitempty"`
	Encoding    string       `json:"encoding"`
	Text        *string      `json:"text,omitempty"`
	Base64      []byte       `json:"base64,omitempty"`
	Annotations []jsonField  `json:"annotations,omitempty"`
	Message     *jsonMessage `json:"message,omitempty"`
	Error       string       `json:"error,omitempty"`
}

// jsonField is one annotation of a frame's bytes.
type jsonField struct {
	Offset int    `json:"offset"`
	Length int    `json:"length"`
	Name   string `json:"name"`
	Value  string `json:"value,omitempty"`
	Kind   string `json:"kind"`
}

// jsonMessage is what the decoded JSON-RPC message of a frame is.
type jsonMessage struct {
	Kind      string          `json:"kind"`
	Method    string          `json:"method,omitempty"`
	ID        json.RawMessage `json:"id,omitempty"`
	Error     *jsonrpc.Error  `json:"error,omitempty"`
	Violation string          `json:"violation,omitempty"`
}

// jsonEvent is every other object: stream and SSE events, link, end.
// Which fields it holds depends on its kind.
type jsonEvent struct {
	Kind  string  `json:"kind"`
	Time  string  `json:"time"`
	Conn  string  `json:"conn,omitempty"`
	ReqID *uint32 `json:"req_id,omitempty"`
	Tag   *uint32 `json:"tag,omitempty"`

	State  string  `json:"state,omitempty"`
	Error  string  `json:"error,omitempty"`
	Label  string  `json:"label,omitempty"`
	Stream string  `json:"stream_id,omitempty"` // stream_label: the stream's own id
	Opener string  `json:"dir,omitempty"`       // stream_label: who opened it, with a stream_id
	Size   *int64  `json:"size,omitempty"`
	Chunks *int64  `json:"chunks,omitempty"`
	Bytes  *int64  `json:"bytes,omitempty"`
	Text   *string `json:"tail_text,omitempty"`
	Base64 []byte  `json:"tail_base64,omitempty"`

	SSEKind   string `json:"sse_kind,omitempty"`
	Method    string `json:"method,omitempty"`
	RequestID string `json:"request_id,omitempty"`
	Of        string `json:"of,omitempty"`
	After     string `json:"after,omitempty"`
	LiveSeq   uint64 `json:"live_seq,omitempty"`
	LastID    string `json:"last_id,omitempty"`
	Why       string `json:"why,omitempty"`

	Transport string `json:"transport,omitempty"`
	Era       string `json:"era,omitempty"`
	Protocol  string `json:"protocol,omitempty"`
}

var fieldKinds = [...]string{proto.FieldHeader: "header", proto.FieldBody: "body", proto.FieldDelimiter: "delimiter"}

// name returns names[i], or "unknown" past its end.
func name[I ~uint8](names []string, i I) string {
	if int(i) < len(names) {
		return names[i]
	}
	return "unknown"
}

// JSONL writes a recording as JSON Lines: a header object, then one
// object per record. Every line is JSON made safe to print on a terminal
// (termtext.JSON) without changing the values it holds.
type JSONL struct {
	w      *bufio.Writer
	buf    bytes.Buffer
	enc    *json.Encoder
	frames int64
}

// NewJSONL returns a JSONL writing to w. Flush writes what it buffers.
func NewJSONL(w io.Writer) *JSONL {
	j := &JSONL{w: bufio.NewWriterSize(w, 64<<10)}
	j.enc = json.NewEncoder(&j.buf)
	j.enc.SetEscapeHTML(false)
	return j
}

// WriteJSONL writes the recording r as JSON Lines to w.
func WriteJSONL(w io.Writer, r *recordings.Reader) (recordings.Damage, error) {
	j := NewJSONL(w)
	if err := j.Header(r.Header()); err != nil {
		return recordings.Damage{}, err
	}
	d, err := recordings.Walk(r, j.Record)
	if ferr := j.Flush(); err == nil {
		err = ferr
	}
	return d, err
}

// Header writes the header object.
func (j *JSONL) Header(h recordings.Header) error {
	return j.write(jsonHeader{Kind: KindHeader, Header: h})
}

// Record writes the object of one record.
func (j *JSONL) Record(rec *recordings.Record) error {
	if rec.Kind == recordings.RecFrame {
		j.frames++
		return j.writeFrame(rec.Frame, rec.LiveSeq)
	}
	return j.write(eventObject(rec))
}

// Flush writes what is buffered.
func (j *JSONL) Flush() error {
	if err := j.w.Flush(); err != nil {
		return fmt.Errorf("writing the export: %w", err)
	}
	return nil
}

// write encodes v as one line.
func (j *JSONL) write(v any) error {
	j.buf.Reset()
	if err := j.enc.Encode(v); err != nil {
		return fmt.Errorf("encoding the export: %w", err)
	}
	if _, err := j.w.Write(termtext.JSON(j.buf.Bytes())); err != nil {
		return fmt.Errorf("writing the export: %w", err)
	}
	if j.buf.Cap() > 1<<20 {
		j.buf = bytes.Buffer{} // let one huge frame's buffer go
		j.enc = json.NewEncoder(&j.buf)
		j.enc.SetEscapeHTML(false)
	}
	return nil
}

// timeText renders a recorded time: RFC 3339 with nanoseconds, in UTC.
func timeText(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// frameObject is the object of frame f, the seq-th of the recording.
func frameObject(f *capture.Frame, seq int64, live uint64) jsonFrame {
	o := jsonFrame{Kind: KindFrame, Seq: seq, LiveSeq: live, Time: timeText(f.Time), Dir: f.Dir.String(), Conn: f.Conn,
		Channel: recordings.ChannelName(f.Chan.Kind), Size: max(f.Size, len(f.Raw)), Encoding: f.Enc.String()}
	switch f.Chan.Kind {
	case capture.Stream:
		o.ReqID, o.Tag = &f.Chan.ReqID, &f.Chan.Tag
	case capture.Datagram:
		o.ReqID, o.DatagramCh = &f.Chan.ReqID, &f.Chan.Ch
	}
	if len(f.Raw) < o.Size {
		n := len(f.Raw)
		o.Kept = &n
	}
	if len(f.Raw) <= streamBytesOver {
		o.Text, o.Base64 = bytesOf(f.Raw) // longer bytes are written apart (writeFrame)
	}
	for _, fd := range f.Fields {
		o.Annotations = append(o.Annotations, jsonField{Offset: fd.Offset, Length: fd.Len, Name: fd.Name, Value: fd.Value, Kind: name(fieldKinds[:], fd.Kind)})
	}
	if f.Err != nil {
		o.Error = f.Err.Error()
	}
	o.Message = messageObject(f.Msg)
	return o
}

// bytesOf returns b as text when it is valid UTF-8, else as base64.
func bytesOf(b []byte) (*string, []byte) {
	if utf8.Valid(b) {
		s := string(b)
		return &s, nil
	}
	return nil, b
}

// messageObject says what m is, or nil when there is none.
func messageObject(m *jsonrpc.Message) *jsonMessage {
	if m == nil {
		return nil
	}
	o := &jsonMessage{Kind: m.Kind().String(), Method: m.Method, Error: m.Error}
	if m.ID != nil {
		o.ID, _ = m.ID.MarshalJSON()
	}
	if m.Violation != nil {
		o.Violation = m.Violation.Error()
	}
	return o
}

// eventObject is the object of a record other than a frame.
func eventObject(rec *recordings.Record) jsonEvent {
	o := jsonEvent{Time: timeText(rec.Time)}
	stream := func(kind string) {
		o.Kind, o.Conn = kind, rec.Key.Conn
		o.ReqID, o.Tag = &rec.Key.ReqID, &rec.Key.Tag
	}
	switch rec.Kind {
	case recordings.RecMark:
		stream(KindStreamMark)
		o.State, o.Error = rec.State.String(), rec.Err
	case recordings.RecLabel:
		stream(KindStreamLabel)
		o.Label, o.Stream = rec.Label.Text, rec.Label.ID
		if rec.Label.ID != "" {
			o.Opener = rec.Label.Opener.String()
		}
	case recordings.RecSize:
		stream(KindStreamSize)
		o.Size = &rec.Size
	case recordings.RecRest:
		stream(KindStreamRest)
		o.Chunks, o.Bytes = &rec.Chunks, &rec.Size
		if len(rec.Tail) > 0 {
			o.Text, o.Base64 = bytesOf(rec.Tail)
		}
	case recordings.RecSSEOpen:
		o.Kind, o.Conn, o.SSEKind = KindSSEOpen, rec.Conn, recordings.SSEKindName(rec.SSE.Kind)
		o.Method, o.RequestID, o.Of, o.After = rec.SSE.Method, rec.SSE.ReqID, rec.SSE.Of, rec.SSE.After
	case recordings.RecSSEEvent:
		o.Kind, o.Conn, o.LiveSeq, o.LastID = KindSSEEvent, rec.Conn, rec.LiveSeq, rec.LastID
		o.Size = &rec.Size
	case recordings.RecSSEEnd:
		o.Kind, o.Conn, o.State, o.Why = KindSSEEnd, rec.Conn, rec.SSEState.String(), rec.Why
	case recordings.RecLink:
		o.Kind, o.Transport, o.Era, o.Protocol = KindLink, rec.Transport, rec.Era, rec.Protocol
	default:
		o.Kind = KindEnd
	}
	return o
}
