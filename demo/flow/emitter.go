package flow

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// CodeStreamLimit answers a call that would open more streams than
// maxConcurrentStreams (seed 000 §4.2).
const CodeStreamLimit = mcp.CodeFlowStreamLimitExceeded

// emitter is what one call may emit on the session.
type emitter struct {
	s       *session
	ctx     context.Context
	id      uint32
	nextTag atomic.Uint32
}

// Emitter returns the emitter of one call (demo.Outbound).
func (s *session) Emitter(ctx context.Context, info demo.CallInfo) demo.Emitter {
	id, _ := flowID(info.ID) // dispatch refused any other id
	return &emitter{s: s, ctx: ctx, id: id}
}

// datagram sends one datagram: the 6-byte header, then payload.
func (e *emitter) datagram(ch flow.DatagramChannel, payload []byte) error {
	b := flow.DatagramHeader{Channel: ch, RequestID: e.id}.Append(make([]byte, 0, flow.DatagramHeaderLen+len(payload)))
	return e.s.wt.SendDatagram(append(b, payload...))
}

// Progress sends a progress datagram in the negotiated encoding.
func (e *emitter) Progress(progress, total float64, message string) error {
	p, err := flow.ProgressDatagram{Progress: progress, Total: total, Message: message}.Encode(e.s.encoding())
	if err != nil {
		return err
	}
	return e.datagram(flow.ChannelProgress, p)
}

// Log sends a log datagram in the negotiated encoding.
func (e *emitter) Log(level, logger string, data any) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("log data: %w", err)
	}
	p, err := flow.LogDatagram{Level: level, Logger: logger, Data: raw}.Encode(e.s.encoding())
	if err != nil {
		return err
	}
	return e.datagram(flow.ChannelLog, p)
}

// Audio sends a datagram of raw PCM.
func (e *emitter) Audio(pcm []byte) error { return e.datagram(flow.ChannelAudio, pcm) }

// OpenStream reserves a slot, opens a unidirectional stream and tags it
// with the next tag of the call (1, 2, …). The header goes out with the
// first write.
func (e *emitter) OpenStream() (demo.ExecStream, error) {
	if err := e.s.reserveStream(); err != nil {
		return nil, err
	}
	str, err := e.s.wt.OpenUniStream()
	if err != nil {
		e.s.releaseStream()
		return nil, &jsonrpc.Error{Code: mcp.CodeInternalError, Message: fmt.Sprintf("opening an execution stream failed: %v", err)}
	}
	tag := e.nextTag.Add(1)
	st := &execStream{s: e.s, str: str, hdr: flow.ExecStreamHeader{RequestID: e.id, StreamTag: tag}}
	// A call that ends without closing its stream (cancelled, or a handler
	// that forgot) resets it and frees the slot.
	st.stopCancel = context.AfterFunc(e.ctx, func() {
		str.CancelWrite(StreamCodeCancelled)
		st.release()
	})
	return st, nil
}

// reserveStream takes a stream slot: -32000 over the limit or while the
// session drains.
func (s *session) reserveStream() error {
	s.smu.Lock()
	defer s.smu.Unlock()
	switch {
	case s.draining:
		return &jsonrpc.Error{Code: mcp.CodeInternalError, Message: "the session is shutting down; no new execution streams"}
	case s.open >= s.srv.cfg.MaxConcurrentStreams:
		return &jsonrpc.Error{Code: CodeStreamLimit, Message: "Stream Limit Exceeded",
			Data: json.RawMessage(fmt.Sprintf(`{"maxConcurrentStreams":%d}`, s.srv.cfg.MaxConcurrentStreams))}
	}
	s.open++
	s.opened = true
	return nil
}

// releaseStream frees a slot; the last one of a draining session lets the
// shutdown go on.
func (s *session) releaseStream() {
	s.smu.Lock()
	defer s.smu.Unlock()
	s.open--
	if s.open == 0 && s.draining {
		select {
		case <-s.drained:
		default:
			close(s.drained)
		}
	}
}
