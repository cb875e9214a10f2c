package proxy

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Held is a paused message waiting for a viewer's decision.
type Held struct {
	N      uint64      // numbers it for Decide
	Seq    uint64      // the Seq of its frame
	Dir    capture.Dir // where it was going
	Method string      // its method, or that of the request it answers
	Tool   string
	Body   []byte // the message as it came
	Since  time.Time
	Rule   string // the filter that paused it
}

// Decision is what a viewer decides for a paused message.
type Decision struct {
	// Drop drops the message: it never reaches its receiver.
	Drop bool
	// Body, when set, goes on in its place (an edited message).
	Body []byte

	released string         // the message goes on unchanged because of this, not a viewer
	enc      proto.Encoding // the encoding Body is in (Decide finds it)
}

// ErrNotHeld says a Decide named a message that is not paused (any more).
var ErrNotHeld = errors.New("no such paused message: it went on or was dropped already")

// gate holds the pause filters and the messages they paused.
type gate struct {
	mu      sync.Mutex
	filters []Filter
	held    map[uint64]*heldMsg
	next    uint64
	ended   bool // the session ended: nothing is paused any more
}

type heldMsg struct {
	Held
	enc     proto.Encoding
	decide  chan Decision
	settled chan struct{} // closed once its decision is marked
}

// PauseOn replaces the pause filters: every message one of them matches
// waits for a viewer. No filter pauses nothing.
func (s *Session) PauseOn(filters []Filter) error {
	for _, f := range filters {
		if err := f.Check(); err != nil {
			return err
		}
	}
	s.gate.mu.Lock()
	s.gate.filters = slices.Clone(filters)
	s.gate.mu.Unlock()
	return nil
}

// PauseFilters returns the pause filters in force.
func (s *Session) PauseFilters() []Filter {
	s.gate.mu.Lock()
	defer s.gate.mu.Unlock()
	return slices.Clone(s.gate.filters)
}

// Held returns the paused messages, oldest first.
func (s *Session) Held() []Held {
	s.gate.mu.Lock()
	defer s.gate.mu.Unlock()
	out := make([]Held, 0, len(s.gate.held))
	for _, h := range s.gate.held {
		out = append(out, h.Held)
	}
	slices.SortFunc(out, func(a, b Held) int { return cmp.Compare(a.N, b.N) })
	return out
}

// Decide lets paused message n go on (unchanged, or as d.Body) or drops
// it. An edited body that is not one JSON-RPC message (in JSON, or in the
// encoding the message came in) is refused and the message stays paused.
func (s *Session) Decide(n uint64, d Decision) error {
	s.gate.mu.Lock()
	h := s.gate.held[n]
	s.gate.mu.Unlock()
	if h != nil && d.Body != nil && !d.Drop {
		var err error
		if d.Body, d.enc, err = checkEdit(h.enc, d.Body); err != nil {
			return fmt.Errorf("paused message %d stays paused: %w", n, err)
		}
	}
	s.gate.mu.Lock()
	taken := h != nil && s.gate.held[n] == h
	if taken {
		delete(s.gate.held, n)
	}
	s.gate.mu.Unlock()
	if !taken {
		return fmt.Errorf("paused message %d: %w", n, ErrNotHeld)
	}
	h.decide <- d
	return nil
}

// checkEdit says what is wrong with an edited body, or nil, and returns
// the body as it goes and its encoding: the message's own, so that what
// is captured is what the wire carries (an edit written in JSON for a
// message that came in CBOR is turned into CBOR).
func checkEdit(enc proto.Encoding, body []byte) ([]byte, proto.Encoding, error) {
	used := proto.EncJSON
	m, err := jsonrpc.Decode(used, body)
	if err != nil && enc == proto.EncCBOR {
		if mc, errc := jsonrpc.Decode(proto.EncCBOR, body); errc == nil {
			m, err, used = mc, nil, proto.EncCBOR
		}
	}
	if err != nil {
		return nil, enc, fmt.Errorf("the edited message is not a JSON-RPC message: %w", err)
	}
	if m.Kind() == jsonrpc.KindInvalid {
		return nil, enc, errors.New("the edited message is not a JSON-RPC request, notification or answer")
	}
	if enc == proto.EncCBOR && used != proto.EncCBOR {
		cb, err := jsonrpc.JSONToCBOR(body)
		if err != nil {
			return nil, enc, fmt.Errorf("the edited message cannot be written in CBOR, as its connection speaks: %w", err)
		}
		return cb, proto.EncCBOR, nil
	}
	return body, used, nil
}

// ReleaseAll lets every paused message go on unchanged and clears the
// pause filters, saying why (the last viewer left). It returns once each
// of them is marked released.
func (s *Session) ReleaseAll(why string) {
	s.gate.releaseAll(why, true, false)
}

// releaseAll lets every paused message go and waits until each is
// marked. Atomically with taking them, it clears the filters (when clear)
// or ends the gate (when end), so that no message is paused after it.
func (g *gate) releaseAll(why string, clear, end bool) {
	g.mu.Lock()
	if clear {
		g.filters = nil
	}
	g.ended = g.ended || end
	held := g.held
	g.held = nil
	g.mu.Unlock()
	for _, h := range held {
		h.decide <- Decision{released: why}
	}
	for _, h := range held {
		<-h.settled
	}
}

// pauseRule is the first pause filter matching a message going dir, as
// written; ok is false when none does. The caller holds g.mu.
func (g *gate) pauseRule(dir capture.Dir, a *about) (rule string, ok bool) {
	if len(g.filters) > 0 {
		a.resolve()
	}
	for _, f := range g.filters {
		if f.Match(dir, a.method, a.tool) {
			return f.String(), true
		}
	}
	return "", false
}

// hold pauses h, when a pause filter matches it, until a viewer decides,
// and carries out the decision, carrying h (or its edit) on copies times
// (two: a duplicate fault); held is false (and nothing done) when no
// filter matches.
func (s *Session) hold(ctx context.Context, h Hop, seq uint64, a about, copies int, c Carrier) (held bool, err error) {
	s.gate.mu.Lock()
	rule, ok := s.gate.pauseRule(h.Dir, &a)
	if !ok || s.gate.ended {
		// No filter matches, or the session ended: nothing waits.
		s.gate.mu.Unlock()
		return false, nil
	}
	if s.gate.held == nil {
		s.gate.held = map[uint64]*heldMsg{}
	}
	s.gate.next++
	hm := &heldMsg{
		Held:    Held{N: s.gate.next, Seq: seq, Dir: h.Dir, Method: a.method, Tool: a.tool, Body: h.Body, Since: s.clock(), Rule: rule},
		enc:     h.Enc,
		decide:  make(chan Decision, 1),
		settled: make(chan struct{}),
	}
	s.gate.held[hm.N] = hm
	s.gate.mu.Unlock()
	settle := sync.OnceFunc(func() { close(hm.settled) })
	defer settle()
	s.Mark(h.Dir, h.Conn, Mark{What: WhatPaused, Seq: seq, Held: hm.N, Method: a.method, Tool: a.tool, Rule: rule})

	base := Mark{Seq: seq, Held: hm.N, Method: a.method, Tool: a.tool}
	s.recordPending()
	var d Decision
	select {
	case d = <-hm.decide:
	case <-ctx.Done():
		// The connection ended (the host left): the message goes nowhere.
		s.forget(hm.N)
		base.What, base.Note = WhatDropped, "the connection ended while it was paused; not carried on"
		s.Mark(h.Dir, h.Conn, base)
		return true, ctx.Err()
	case <-s.done:
		s.forget(hm.N)
		d.released = "the session ended"
	}
	switch {
	case d.released != "":
		base.What, base.Note = WhatReleased, d.released
	case d.Drop:
		base.What = WhatDropped
		s.Mark(h.Dir, h.Conn, base)
		return true, nil
	case d.Body != nil:
		edited := h
		edited.Body, edited.Raw, edited.Fields, edited.Enc = d.Body, d.Body, nil, d.enc
		msg := decode(edited)
		s.mu.Lock()
		s.calls.see(h.Dir, h.Session, msg) // its answer matches the request as edited
		s.mu.Unlock()
		// What goes is captured first; the mark names it by its Seq.
		base.What = WhatEdited
		base.Seq = s.capture(&capture.Frame{Dir: h.Dir, Conn: h.Conn, Chan: h.Chan, Raw: d.Body, Size: len(d.Body), Enc: d.enc, Msg: msg})
		s.Mark(h.Dir, h.Conn, base)
		settle()
		for range copies {
			if err := c.Send(ctx, h.Dir, d.Body); err != nil {
				return true, err
			}
		}
		return true, nil
	default:
		base.What = WhatForwarded
	}
	s.Mark(h.Dir, h.Conn, base)
	settle()
	return true, pass(ctx, c, h, copies)
}

// pass carries h on unchanged copies times.
func pass(ctx context.Context, c Carrier, h Hop, copies int) error {
	for range copies {
		if err := c.Pass(ctx, h); err != nil {
			return err
		}
	}
	return nil
}

// forget removes paused message n without a decision.
func (s *Session) forget(n uint64) {
	s.gate.mu.Lock()
	delete(s.gate.held, n)
	s.gate.mu.Unlock()
}
