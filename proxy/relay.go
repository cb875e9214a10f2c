package proxy

import (
	"context"
	"errors"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// errNotMessage marks a control frame that is not a JSON-RPC message
// (garbage from either side): it is captured and carried on as it came.
var errNotMessage = errors.New("not a JSON-RPC message; carried on unchanged")

// Relay captures one message read from one side and carries it on to the
// other through c: unchanged unless a fault rule or a viewer's pause
// filter matches it (the fault acts first; a duplicate's two copies go
// after the pause, so a viewer's drop drops both). An answer to a request a
// viewer injected is kept from the host. Relay returns when the message
// has gone (or was dropped); a paused message holds it until a viewer
// decides, no viewer is left, the session ends or ctx is done, and a
// delay fault for its time, so a relay that reads one side in order
// holds that side's next messages behind it. The error is c's, or ctx's.
func (s *Session) Relay(ctx context.Context, h Hop, c Carrier) error {
	m := decode(h)
	f := &capture.Frame{
		Dir: h.Dir, Conn: h.Conn, Chan: h.Chan, Raw: h.Raw, Size: len(h.Raw),
		Fields: h.Fields, Enc: h.Enc, Msg: m,
	}
	if m == nil && h.Chan.Kind == capture.Control && batchOrGarbage(h) {
		f.Err = errNotMessage
	}
	s.mu.Lock()
	a := s.calls.see(h.Dir, h.Session, m)
	faults := s.faults
	s.mu.Unlock()
	seq := s.capture(f)
	if h.Dir == capture.In && s.injectedAnswer(a) {
		a.resolve()
		s.Mark(h.Dir, h.Conn, Mark{What: WhatKept, Seq: seq, ID: idText(m), Method: a.method, Tool: a.tool,
			Note: "the answer to an injected request; not delivered to the host"})
		return nil
	}
	copies, err := faults.apply(ctx, s, h, seq, m, &a, c)
	if copies == 0 || err != nil {
		return err
	}
	if held, err := s.hold(ctx, h, seq, a, copies, c); held {
		return err
	}
	return pass(ctx, c, h, copies)
}

// batchOrGarbage says whether a control body that decoded to no message
// is garbage rather than a batch (a batch is JSON-RPC too).
func batchOrGarbage(h Hop) bool {
	if _, batch, err := jsonrpc.DecodeBatch(h.Enc, h.Body); err == nil && batch {
		return false
	}
	return true
}

// idText is m's id as JSON-RPC writes it, or "".
func idText(m *jsonrpc.Message) string {
	if m == nil || m.ID == nil {
		return ""
	}
	return m.ID.String()
}
