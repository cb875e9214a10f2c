package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Types of a StreamMessage (seed 003 §1).
const (
	StreamStart = "start"
	StreamChunk = "chunk"
	StreamDone  = "done"
	StreamError = "error"
)

// StreamMeta is the meta object of a start message (seed 003 §2,
// StreamMessageMeta): the tool the stream invokes and what it carries.
type StreamMeta struct {
	Method        string `json:"method"`
	Binary        bool   `json:"binary"`
	Name          string `json:"name,omitempty"`
	Mime          string `json:"mime,omitempty"`
	CorrelationID string `json:"correlationId,omitempty"`
	TotalSize     *int64 `json:"totalSize,omitempty"`
	Compression   string `json:"compression,omitempty"`
	Encoding      string `json:"encoding,omitempty"`
	// Extra holds members the seed does not name, kept and sent as they
	// are (a tool's own options).
	Extra map[string]json.RawMessage `json:"-"`
}

// streamMetaFields is StreamMeta without its methods, for encoding/json.
type streamMetaFields StreamMeta

// streamMetaKeys are the members StreamMeta names.
var streamMetaKeys = []string{"method", "binary", "name", "mime", "correlationId", "totalSize", "compression", "encoding"}

// MarshalJSON writes the named members, then Extra's in key order (a
// member Extra shares with a named one is left out).
func (m StreamMeta) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(streamMetaFields(m))
	if err != nil || len(m.Extra) == 0 {
		return b, err
	}
	keys := make([]string, 0, len(m.Extra))
	for k := range m.Extra {
		if !slices.Contains(streamMetaKeys, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	out := bytes.NewBuffer(b[:len(b)-1])
	for _, k := range keys {
		name, _ := json.Marshal(k)
		out.WriteByte(',')
		out.Write(name)
		out.WriteByte(':')
		if err := json.Compact(out, m.Extra[k]); err != nil {
			return nil, fmt.Errorf("meta member %s: %w", k, err)
		}
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// UnmarshalJSON reads the named members over what m holds (a member
// absent from b keeps its value) and adds the others to Extra.
func (m *StreamMeta) UnmarshalJSON(b []byte) error {
	f := streamMetaFields(*m)
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	for _, k := range streamMetaKeys {
		delete(all, k)
	}
	if len(all) > 0 {
		f.Extra = maps.Clone(f.Extra)
		if f.Extra == nil {
			f.Extra = make(map[string]json.RawMessage, len(all))
		}
		maps.Copy(f.Extra, all)
	}
	*m = StreamMeta(f)
	return nil
}

// StreamMessage is one text frame of the gateway's streaming (seed 003 §1,
// DESIGN §3.4): start (with Meta), chunk (Index and Data; a binary chunk
// travels as a binary frame instead, see GatewayChunkHeader), done (with an
// optional Summary) or error (with a JSON-RPC Error). ID is the stream's
// GUID, Timestamp an ISO 8601 time in UTC.
type StreamMessage struct {
	Type      string
	ID        GUID
	Timestamp time.Time
	Meta      *StreamMeta
	Index     *int64
	Data      json.RawMessage
	Summary   json.RawMessage
	Error     *jsonrpc.Error
	// Violation, set by DecodeStreamMessage, says what a message that
	// could still be read breaks of seed 003: a timestamp not in UTC, a
	// start whose meta lacks the required binary. Encoding ignores it.
	Violation error
}

// streamWire is the JSON shape of a StreamMessage.
type streamWire struct {
	Type      *string         `json:"type"`
	JSONRPC   json.RawMessage `json:"jsonrpc,omitempty"` // read only, to tell JSON-RPC apart
	ID        *string         `json:"id"`
	Timestamp string          `json:"timestamp"`
	Meta      *StreamMeta     `json:"meta,omitempty"`
	Index     *int64          `json:"index,omitempty"`
	Data      json.RawMessage `json:"data,omitempty"`
	Summary   json.RawMessage `json:"summary,omitempty"`
	Error     *jsonrpc.Error  `json:"error,omitempty"`
}

// ErrNotStreamMessage is wrapped by DecodeStreamMessage when a text frame is
// not a StreamMessage (no "type" member, or a "jsonrpc" one).
var ErrNotStreamMessage = errors.New("not a StreamMessage")

// EncodeStreamMessage renders m as the JSON of one text frame. A zero
// Timestamp is the current time; the time is written in UTC.
func EncodeStreamMessage(m *StreamMessage) ([]byte, error) {
	ts := m.Timestamp
	if ts.IsZero() {
		ts = time.Now()
	}
	id := m.ID.String()
	w := streamWire{Type: &m.Type, ID: &id, Timestamp: ts.UTC().Format(time.RFC3339Nano),
		Meta: m.Meta, Index: m.Index, Data: m.Data, Summary: m.Summary, Error: m.Error}
	b, err := json.Marshal(w)
	if err != nil {
		return nil, fmt.Errorf("encoding a %s StreamMessage: %w", m.Type, err)
	}
	return b, nil
}

// IsStreamMessage reports whether a text frame looks like a StreamMessage
// rather than JSON-RPC: a JSON object with a "type" member and no
// "jsonrpc" member. It does not validate the message.
func IsStreamMessage(b []byte) bool {
	var probe struct {
		JSONRPC json.RawMessage `json:"jsonrpc"`
		Type    json.RawMessage `json:"type"`
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' || json.Unmarshal(b, &probe) != nil {
		return false
	}
	return probe.JSONRPC == nil && probe.Type != nil
}

// DecodeStreamMessage parses and checks one text frame: a known type, a
// GUID id, an ISO 8601 timestamp, and what the type needs (start: meta
// with a method; chunk: an index ≥ 0; error: an error object). A frame
// that is not a StreamMessage at all wraps ErrNotStreamMessage. What does
// not stop the message being read (a timestamp with an offset other than
// UTC's, a start without meta.binary) is returned as its Violation.
//
// The frame is parsed once: a member of the wrong type leaves the others
// read (encoding/json goes on past it), so "type" and "jsonrpc" still tell
// a StreamMessage from JSON-RPC, and the frame is a malformed one.
func DecodeStreamMessage(b []byte) (*StreamMessage, error) {
	var w streamWire
	err := json.Unmarshal(b, &w)
	var typeErr *json.UnmarshalTypeError
	if err != nil && !errors.As(err, &typeErr) || w.Type == nil || w.JSONRPC != nil {
		return nil, fmt.Errorf("%w: a JSON object with \"type\" and no \"jsonrpc\" is expected", ErrNotStreamMessage)
	}
	if err != nil {
		return nil, fmt.Errorf("StreamMessage is malformed: %w", err)
	}
	m := &StreamMessage{Type: *w.Type, Meta: w.Meta, Index: w.Index, Data: w.Data, Summary: w.Summary, Error: w.Error}
	if w.ID == nil {
		return nil, fmt.Errorf("%s StreamMessage has no stream id", m.Type)
	}
	id, err := ParseGUID(*w.ID)
	if err != nil {
		return nil, fmt.Errorf("%s StreamMessage: stream id: %w", m.Type, err)
	}
	m.ID = id
	if m.Timestamp, err = time.Parse(time.RFC3339Nano, w.Timestamp); err != nil {
		return nil, fmt.Errorf("%s StreamMessage %s: timestamp %q is not ISO 8601: %w", m.Type, id, w.Timestamp, err)
	}
	if y := m.Timestamp.UTC().Year(); y < 1 || y > 9999 {
		return nil, fmt.Errorf("%s StreamMessage %s: timestamp %q falls outside the years 0001–9999 in UTC", m.Type, id, w.Timestamp)
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("%s StreamMessage %s: %w", m.Type, id, err)
	}
	m.Violation = m.lapses(b, w.Timestamp)
	return m, nil
}

// lapses is what a message that passed check breaks of seed 003 all the
// same (ts is its timestamp as written), or nil.
func (m *StreamMessage) lapses(b []byte, ts string) error {
	var found []string
	if _, offset := m.Timestamp.Zone(); offset != 0 {
		found = append(found, fmt.Sprintf("timestamp %q is not in UTC (a gateway stream wants ISO 8601 UTC)", ts))
	}
	if m.Type == StreamStart && !metaHasBinary(b) {
		found = append(found, "its meta has no binary (true or false), which a gateway stream requires")
	}
	if len(found) == 0 {
		return nil
	}
	return fmt.Errorf("%s StreamMessage %s: %s", m.Type, m.ID, strings.Join(found, "; "))
}

// metaHasBinary reports whether the frame's meta has a binary member that
// is not null. It reads the frame again, which only a start costs.
func metaHasBinary(b []byte) bool {
	var probe struct {
		Meta struct {
			Binary json.RawMessage `json:"binary"`
		} `json:"meta"`
	}
	if json.Unmarshal(b, &probe) != nil {
		return false
	}
	v := bytes.TrimSpace(probe.Meta.Binary)
	return len(v) > 0 && !bytes.Equal(v, []byte("null"))
}

// check verifies what each type needs.
func (m *StreamMessage) check() error {
	switch m.Type {
	case StreamStart:
		if m.Meta == nil || m.Meta.Method == "" {
			return errors.New("a start needs meta with a method")
		}
	case StreamChunk:
		if m.Index == nil || *m.Index < 0 {
			return errors.New("a chunk needs an index of 0 or more")
		}
	case StreamDone:
		if s := bytes.TrimSpace(m.Summary); len(s) > 0 && !bytes.Equal(s, []byte("null")) && s[0] != '{' {
			return errors.New("a done's summary must be an object")
		}
	case StreamError:
		if m.Error == nil {
			return errors.New("an error needs an error object")
		}
	default:
		return fmt.Errorf("unknown type %q (start, chunk, done or error)", m.Type)
	}
	return nil
}

// AppendGatewayChunk appends a whole binary chunk frame: the 24-byte
// header for stream id and index, then payload.
func AppendGatewayChunk(dst []byte, id GUID, index int64, payload []byte) []byte {
	dst = GatewayChunkHeader{StreamID: id, Index: index}.Append(dst)
	return append(dst, payload...)
}
