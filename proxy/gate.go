package proxy

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/capture"
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

	released string // the message goes on unchanged because of this, not a viewer
}

// ErrNotHeld says a Decide named a message that is not paused (any more).
var ErrNotHeld = errors.New("no such paused message: it went on or was dropped already")

// gate holds the pause filters and the messages they paused.
type gate struct {
	mu      sync.Mutex
	filters []Filter
	held    map[uint64]*heldMsg
	next    uint64
}

type heldMsg struct {
	Held
	decide chan Decision
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
	slices.SortFunc(out, func(a, b Held) int { return int(a.N) - int(b.N) })
	return out
}

// Decide lets paused message n go on (unchanged, or as d.Body) or drops it.
func (s *Session) Decide(n uint64, d Decision) error {
	s.gate.mu.Lock()
	h, ok := s.gate.held[n]
	if ok {
		delete(s.gate.held, n)
	}
	s.gate.mu.Unlock()
	if !ok {
		return fmt.Errorf("paused message %d: %w", n, ErrNotHeld)
	}
	h.decide <- d
	return nil
}

// ReleaseAll lets every paused message go on unchanged and clears the
// pause filters, saying why (the last viewer left).
func (s *Session) ReleaseAll(why string) {
	s.gate.mu.Lock()
	s.gate.filters = nil
	s.gate.mu.Unlock()
	s.gate.releaseAll(s, why)
}

func (g *gate) releaseAll(s *Session, why string) {
	g.mu.Lock()
	held := g.held
	g.held = nil
	g.mu.Unlock()
	for _, h := range held {
		h.decide <- Decision{released: why}
	}
}

// matches says whether a pause filter matches a message going dir.
func (g *gate) matches(dir capture.Dir, a about) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, f := range g.filters {
		if f.Match(dir, a.method, a.tool) {
			return true
		}
	}
	return false
}

// rule is the first pause filter matching, as written.
func (g *gate) rule(dir capture.Dir, a about) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, f := range g.filters {
		if f.Match(dir, a.method, a.tool) {
			return f.String()
		}
	}
	return ""
}

// hold pauses h until a viewer decides, and carries out the decision.
func (s *Session) hold(ctx context.Context, h Hop, seq uint64, a about, c Carrier) error {
	rule := s.gate.rule(h.Dir, a)
	s.gate.mu.Lock()
	if s.gate.held == nil {
		s.gate.held = map[uint64]*heldMsg{}
	}
	s.gate.next++
	hm := &heldMsg{
		Held:   Held{N: s.gate.next, Seq: seq, Dir: h.Dir, Method: a.method, Tool: a.tool, Body: h.Body, Since: s.clock(), Rule: rule},
		decide: make(chan Decision, 1),
	}
	s.gate.held[hm.N] = hm
	s.gate.mu.Unlock()
	s.mark(h.Dir, h.Conn, Mark{What: WhatPaused, Seq: seq, Held: hm.N, Method: a.method, Tool: a.tool, Rule: rule})

	var d Decision
	released := ""
	select {
	case d = <-hm.decide:
		released = d.released
	case <-ctx.Done():
		s.forget(hm.N)
		return ctx.Err()
	case <-s.done:
		s.forget(hm.N)
		released = "the session ended"
	}
	base := Mark{Seq: seq, Held: hm.N, Method: a.method, Tool: a.tool}
	switch {
	case released != "":
		base.What, base.Note = WhatReleased, released
	case d.Drop:
		base.What = WhatDropped
		s.mark(h.Dir, h.Conn, base)
		return nil
	case d.Body != nil:
		base.What = WhatEdited
		s.mark(h.Dir, h.Conn, base)
		edited := h
		edited.Body, edited.Raw = d.Body, d.Body
		edited.Fields = nil
		s.capture(&capture.Frame{Dir: h.Dir, Conn: h.Conn, Chan: h.Chan, Raw: d.Body, Size: len(d.Body), Enc: h.Enc, Msg: decode(edited)})
		return c.Send(ctx, h.Dir, d.Body)
	default:
		base.What = WhatForwarded
	}
	s.mark(h.Dir, h.Conn, base)
	return c.Pass(ctx, h)
}

// forget removes paused message n without a decision.
func (s *Session) forget(n uint64) {
	s.gate.mu.Lock()
	delete(s.gate.held, n)
	s.gate.mu.Unlock()
}
