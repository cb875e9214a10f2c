package proxy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// noteDuplicate is the Note of a duplicate fault's mark. A pause filter
// that also matches holds the message first: a viewer's drop drops both
// copies, an edit sends the edit twice.
const noteDuplicate = "carried on twice, one copy after the other, unless a viewer drops it"

// errCorrupted is the decode error of a message a fault corrupted.
var errCorrupted = errors.New("corrupted on purpose by a fault rule: it no longer parses")

// apply lets the first fault rule that acts on h (see Fault) do so, each
// act a WhatFault mark captured before its effect. copies is how many
// times Relay is to carry h on: 0 when h was dealt with (dropped,
// answered, corrupted, cut), 2 for a duplicate, 1 otherwise (after a
// delay, or no rule). err is c's, or ctx's when a delay was cut short.
func (fs *faultState) apply(ctx context.Context, s *Session, h Hop, seq uint64, m *jsonrpc.Message, a *about, c Carrier) (copies int, err error) {
	i, f, ok := fs.pick(h.Dir, a)
	if !ok {
		return 1, nil
	}
	mark := func(note string) {
		s.Mark(h.Dir, h.Conn, Mark{What: WhatFault, Seq: seq, ID: idText(m), Method: a.method, Tool: a.tool,
			Rule: fmt.Sprintf("fault rule %d: %s", i+1, f), Note: note})
	}
	switch f.Action {
	case FaultDelay:
		mark(fmt.Sprintf("held %s before carrying it on", f.Delay))
		return s.delay(ctx, f.Delay)
	case FaultDrop:
		mark("dropped: never carried on")
		return 0, nil
	case FaultDuplicate:
		mark(noteDuplicate)
		return 2, nil
	case FaultCorrupt:
		bad := corrupt(h)
		mark(fmt.Sprintf("corrupted: its %d-byte body cut to its first %d bytes", len(h.Body), len(bad)))
		s.capture(&capture.Frame{Dir: h.Dir, Conn: h.Conn, Chan: h.Chan, Raw: bad, Size: len(bad), Enc: h.Enc, Err: errCorrupted})
		return 0, c.Send(ctx, h.Dir, bad)
	case FaultError:
		if !a.request() {
			mark("dropped: an error rule answers requests, and this is not one")
			return 0, nil
		}
		return 0, s.answerWithError(ctx, h, m, f.Error, mark, c)
	case FaultCut:
		mark("the connection cut; this message not carried on")
		c.Cut(fmt.Sprintf("fault rule %d cut the connection", i+1))
		return 0, nil
	}
	return 1, nil
}

// delay holds a message for d: ctx done (the connection closed) ends the
// wait with ctx's error, the session's end lets the message go at once.
func (s *Session) delay(ctx context.Context, d time.Duration) (copies int, err error) {
	s.recordPending()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-s.done:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	return 1, nil
}

// corrupt is h's body cut to its first half — a JSON body after its
// trailing white space is left out — which no longer parses: a strict
// prefix of one JSON value or one CBOR data item is never whole.
func corrupt(h Hop) []byte {
	body := h.Body
	if h.Enc != proto.EncCBOR {
		body = bytes.TrimRight(body, " \t\r\n")
	}
	return bytes.Clone(body[:len(body)/2])
}

// answerWithError answers request m, which went h.Dir, with e in the
// proxy's name: the answer, in the body's encoding (CBOR for a CBOR body,
// JSON otherwise), goes back toward the sender, and the request goes no
// further.
func (s *Session) answerWithError(ctx context.Context, h Hop, m *jsonrpc.Message, e *jsonrpc.Error, mark func(string), c Carrier) error {
	enc := proto.EncJSON
	if h.Enc == proto.EncCBOR {
		enc = proto.EncCBOR
	}
	ans := &jsonrpc.Message{JSONRPC: jsonrpc.Version, ID: m.ID, Error: e}
	body, err := jsonrpc.Encode(enc, ans)
	if err != nil {
		mark(fmt.Sprintf("dropped: its error answer could not be encoded (%v)", err))
		return nil
	}
	back := opposite(h.Dir)
	mark(fmt.Sprintf("answered with error %d in the proxy's name; never carried on", e.Code))
	msg, _ := jsonrpc.Decode(enc, body)
	s.mu.Lock()
	s.calls.see(back, h.Session, msg)
	s.mu.Unlock()
	s.capture(&capture.Frame{Dir: back, Conn: h.Conn, Chan: h.Chan, Raw: body, Size: len(body), Enc: enc, Msg: msg})
	return c.Send(ctx, back, body)
}

// opposite is the other direction.
func opposite(d capture.Dir) capture.Dir {
	if d == capture.In {
		return capture.Out
	}
	return capture.In
}
