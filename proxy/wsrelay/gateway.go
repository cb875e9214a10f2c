package wsrelay

import (
	"errors"
	"fmt"
	"sync"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/gateway"
)

// maxStreams bounds the gateway streams a link remembers; past it the
// table starts afresh (a chunk of a forgotten stream reads as one of an
// unknown stream).
const maxStreams = 1024

// gatewayStreams numbers the gateway streams of one link, both ways, so
// that their frames share a capture stream.
type gatewayStreams struct {
	mu   sync.Mutex
	tags map[gateway.GUID]uint32
	next uint32
}

// frame returns the capture frame of a gateway stream message going dir
// (a StreamMessage in a text message, a chunk in a binary one), or nil
// when data is not one (JSON-RPC, relayed as a message). It notes what
// the message says of its stream on l's session.
func (g *gatewayStreams) frame(l *link, dir capture.Dir, typ websocket.MessageType, data []byte) *capture.Frame {
	f := &capture.Frame{Dir: dir, Chan: capture.Channel{Kind: capture.Control}, Raw: data, Enc: proto.EncJSON}
	if typ == websocket.MessageBinary {
		f.Enc = proto.EncBinary
		h, _, fields, err := gateway.ParseGatewayChunkHeader(data)
		if err != nil {
			f.Err = fmt.Errorf("a binary message that is no gateway chunk: %w", err)
			return f
		}
		f.Fields = fields
		f.Chan, f.Err = g.channel(l, dir, h.StreamID, nil)
		return f
	}
	m, err := gateway.DecodeStreamMessage(data)
	switch {
	case errors.Is(err, gateway.ErrNotStreamMessage):
		return nil
	case err != nil:
		f.Err = err
		return f
	}
	f.Err = m.Violation
	switch m.Type {
	case gateway.StreamStart:
		_, _ = g.channel(l, dir, m.ID, m.Meta) // a start is a control frame; it labels the stream
	case gateway.StreamChunk:
		var problem error
		f.Chan, problem = g.channel(l, dir, m.ID, nil)
		f.Err = errors.Join(f.Err, problem)
	case gateway.StreamDone, gateway.StreamError:
		ch, _ := g.channel(l, dir, m.ID, nil)
		state, why := capture.StreamDone, error(nil)
		if m.Type == gateway.StreamError && m.Error != nil {
			state, why = capture.StreamError, fmt.Errorf("%d %s", m.Error.Code, m.Error.Message)
		}
		l.r.sess.Tap().Note(capture.StreamMarked{Key: capture.StreamKey{Conn: l.conn, Tag: ch.Tag}, State: state, Err: why})
	}
	return f
}

// channel is the capture channel of stream id; a start (meta set)
// labels it, a chunk of a stream no start opened is a problem.
func (g *gatewayStreams) channel(l *link, dir capture.Dir, id gateway.GUID, meta *gateway.StreamMeta) (capture.Channel, error) {
	g.mu.Lock()
	if g.tags == nil || len(g.tags) >= maxStreams {
		g.tags = map[gateway.GUID]uint32{}
	}
	tag, known := g.tags[id]
	if !known || meta != nil {
		g.next++
		tag = g.next
		g.tags[id] = tag
	}
	g.mu.Unlock()
	ch := capture.Channel{Kind: capture.Stream, Tag: tag}
	if meta != nil {
		l.r.sess.Tap().Note(capture.StreamLabelled{Key: capture.StreamKey{Conn: l.conn, Tag: tag},
			Label: capture.StreamLabel{Text: label(meta), ID: id.String(), Opener: dir}})
		return ch, nil
	}
	if !known {
		return ch, fmt.Errorf("a message of stream %s, which no start opened", id)
	}
	return ch, nil
}

// label says what a gateway stream is: its method, name and MIME type.
func label(m *gateway.StreamMeta) string {
	out := m.Method
	for _, part := range []string{m.Name, m.Mime} {
		if part != "" {
			out += " · " + part
		}
	}
	return out
}
