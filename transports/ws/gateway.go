package ws

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/gateway"
)

// readGatewayText handles a text message of a gateway connection: a
// StreamMessage, or else JSON-RPC of the session.
func (t *Transport) readGatewayText(data []byte) {
	m, err := gateway.DecodeStreamMessage(data)
	if errors.Is(err, gateway.ErrNotStreamMessage) {
		t.readJSONRPC(data)
		return
	}
	f := &capture.Frame{Chan: capture.Channel{Kind: capture.Control}, Raw: data, Enc: proto.EncJSON}
	if err != nil {
		f.Err = err
		t.report(incoming, f)
		return
	}
	ev := StreamEvent{Type: m.Type, ID: m.ID, Meta: m.Meta, Summary: m.Summary, Err: m.Error}
	s, problem := t.track(incoming, m)
	if m.Type == gateway.StreamChunk {
		ev.Index, ev.Data = *m.Index, m.Data
		if s != nil {
			f.Chan = streamChannel(s)
			f.Fields = dataField(data, m.Data)
		}
	}
	if s != nil && ev.Meta == nil {
		ev.Meta = s.meta
	}
	problem = bothProblems(m.Violation, problem)
	f.Err, ev.Problem = problem, problem
	t.report(incoming, f)
	t.cfg.OnStream(ev)
}

// bothProblems is a and b as one error, or the one that is not nil.
func bothProblems(a, b error) error {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return fmt.Errorf("%w; %w", a, b)
}

// readGatewayChunk handles a binary message: a chunk with the 24-byte
// header (GUID in .NET order, int64 LE index), annotated for the hex view.
func (t *Transport) readGatewayChunk(data []byte) {
	f := &capture.Frame{Chan: capture.Channel{Kind: capture.Control}, Raw: data, Enc: proto.EncBinary}
	h, payload, fields, err := gateway.ParseGatewayChunkHeader(data)
	if err != nil {
		f.Err = fmt.Errorf("a binary chunk frame: %w", err)
		t.report(incoming, f)
		return
	}
	f.Fields = fields
	s, problem := t.chunk(h.StreamID, incoming, h.Index)
	if s != nil {
		f.Chan = streamChannel(s)
	}
	f.Err = problem
	ev := StreamEvent{Type: gateway.StreamChunk, ID: h.StreamID, Index: h.Index, Data: payload, Binary: true, Problem: problem}
	if s != nil {
		ev.Meta = s.meta
	}
	if t.report(incoming, f) == 0 && t.spares != nil {
		ev.release = &release{buf: data, to: t.spares}
	}
	t.cfg.OnStream(ev)
}

// track records what a StreamMessage going dir does to its stream and
// marks the capture's stream: its label on start, its announced size with
// its opener's first chunk, its end on done or error.
func (t *Transport) track(dir capture.Dir, m *gateway.StreamMessage) (*gwStream, error) {
	switch m.Type {
	case gateway.StreamStart:
		s, err := t.gw.open(t.cfg.Conn, m.ID, dir, m.Meta)
		if err == nil {
			capture.Note(t.cfg.Sink, capture.StreamLabelled{Key: s.key, Label: capture.StreamLabel{Text: streamLabel(m.Meta), ID: m.ID.String(), Opener: dir}})
		}
		return s, err
	case gateway.StreamChunk:
		return t.chunk(m.ID, dir, *m.Index)
	case gateway.StreamDone, gateway.StreamError:
		s, err := t.gw.end(m.ID, dir, m.Type)
		if err == nil && dir == s.dir { // the stream's own end, not an answer on it
			state, why := capture.StreamDone, error(nil)
			if m.Type == gateway.StreamError {
				state, why = capture.StreamError, fmt.Errorf("%d %s", m.Error.Code, m.Error.Message)
			}
			capture.Note(t.cfg.Sink, capture.StreamMarked{Key: s.key, State: state, Err: why})
		}
		return s, err
	}
	return nil, nil
}

// chunk checks a chunk going dir on stream id (gatewayTable.chunk) and,
// with the first chunk of the stream's opener, gives the capture the size
// its start announced: the stream carries bytes, so the totalSize is its
// own. A start with no chunk after it (a client's start of a download,
// whose totalSize asks the server for that much) gives the capture no
// size, so a stream that carried nothing is not shown as an empty bar.
func (t *Transport) chunk(id gateway.GUID, dir capture.Dir, index int64) (*gwStream, error) {
	s, size, err := t.gw.chunk(id, dir, index)
	if size >= 0 {
		capture.Note(t.cfg.Sink, capture.StreamSized{Key: s.key, Size: size})
	}
	return s, err
}

// streamLabel says what a gateway stream is: its method, name and MIME
// type.
func streamLabel(m *gateway.StreamMeta) string {
	label := m.Method
	for _, part := range []string{m.Name, m.Mime} {
		if part != "" {
			label += " · " + part
		}
	}
	return label
}

// streamChannel is the capture channel of a stream's chunks.
func streamChannel(s *gwStream) capture.Channel {
	return capture.Channel{Kind: capture.Stream, ReqID: s.key.ReqID, Tag: s.key.Tag}
}

// dataField annotates the data member's value of a text chunk as its
// payload.
func dataField(raw, data []byte) []proto.Field {
	k := bytes.Index(raw, []byte(`"data"`))
	if k < 0 || len(data) == 0 {
		return nil
	}
	j := bytes.Index(raw[k:], data)
	if j < 0 {
		return nil
	}
	return []proto.Field{{Offset: k + j, Len: len(data), Name: "data", Value: fmt.Sprintf("%d bytes", len(data)), Kind: proto.FieldBody}}
}

// SendStream sends one StreamMessage of a stream the client opens: a
// start, a text chunk, a done or an error (seed 003), checked as the
// server's are: a chunk before the start, out of order or after the done
// is refused, nothing sent.
func (t *Transport) SendStream(ctx context.Context, m *gateway.StreamMessage) error {
	if t.cfg.Mode != ModeGateway {
		return errors.New("gateway streams need --transport gateway")
	}
	if err := t.life.Writable(); err != nil {
		return err
	}
	raw, err := gateway.EncodeStreamMessage(m)
	if err != nil {
		return err
	}
	if _, err := gateway.DecodeStreamMessage(raw); err != nil {
		return fmt.Errorf("not sent: %w", err) // what a server would refuse
	}
	s, err := t.track(outgoing, m)
	if err != nil {
		return fmt.Errorf("not sent: %w", err)
	}
	f := &capture.Frame{Chan: capture.Channel{Kind: capture.Control}, Raw: raw, Enc: proto.EncJSON}
	if m.Type == gateway.StreamChunk {
		f.Chan, f.Fields = streamChannel(s), dataField(raw, m.Data)
	}
	t.report(outgoing, f)
	return t.write(ctx, websocket.MessageText, raw, "the "+m.Type+" of stream "+m.ID.String())
}

// SendChunk sends one binary chunk of a stream the client opened: the
// 24-byte header, then payload.
func (t *Transport) SendChunk(ctx context.Context, id gateway.GUID, index int64, payload []byte) error {
	if t.cfg.Mode != ModeGateway {
		return errors.New("gateway streams need --transport gateway")
	}
	if err := t.life.Writable(); err != nil {
		return err
	}
	s, err := t.chunk(id, outgoing, index)
	if err != nil {
		return fmt.Errorf("not sent: %w", err)
	}
	raw := gateway.AppendGatewayChunk(make([]byte, 0, gateway.GatewayChunkHeaderLen+len(payload)), id, index, payload)
	_, _, fields, _ := gateway.ParseGatewayChunkHeader(raw)
	t.report(outgoing, &capture.Frame{Chan: streamChannel(s), Raw: raw, Fields: fields, Enc: proto.EncBinary})
	return t.write(ctx, websocket.MessageBinary, raw, fmt.Sprintf("chunk %d of stream %s", index, id))
}
