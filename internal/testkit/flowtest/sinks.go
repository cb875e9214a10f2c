package flowtest

import (
	"io"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
)

// Sinks hands out a Verifier per execution stream, for
// webtransport.Config.StreamSink, and finds them again by key.
type Sinks struct {
	seed int64
	gate <-chan struct{}

	mu      sync.Mutex
	byKey   map[capture.StreamKey]*Verifier
	changed chan struct{}
}

// NewSinks returns sinks expecting the generated data of seed; gate, when
// not nil, holds every stream after its first write until it is closed.
func NewSinks(seed int64, gate <-chan struct{}) *Sinks {
	return &Sinks{seed: seed, gate: gate, byKey: make(map[capture.StreamKey]*Verifier), changed: make(chan struct{})}
}

// Open is the StreamSink: a fresh Verifier for key.
func (s *Sinks) Open(key capture.StreamKey) (io.WriteCloser, error) {
	v := NewVerifier(key, s.seed, s.gate)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byKey[key] = v
	close(s.changed)
	s.changed = make(chan struct{})
	return v, nil
}

// Len returns how many streams were opened.
func (s *Sinks) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byKey)
}

// Await returns the sink of key once the transport opened it; it fails the
// test at guard.Hang.
func (s *Sinks) Await(t testing.TB, key capture.StreamKey) *Verifier {
	t.Helper()
	var v *Verifier
	Eventually(t, "the stream sink of "+key.Conn+" opens", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		v = s.byKey[key]
		return v != nil
	})
	return v
}

// Gate holds the streams of a Sinks after their first write until Open,
// so that a test can act while a transfer is provably mid-flight.
type Gate struct {
	ch   chan struct{}
	once sync.Once
}

// NewGate returns a closed-later gate; it opens by itself when the test ends.
func NewGate(t testing.TB) *Gate {
	g := &Gate{ch: make(chan struct{})}
	t.Cleanup(g.Open)
	return g
}

// C is the channel to give NewSinks.
func (g *Gate) C() <-chan struct{} { return g.ch }

// Open lets the held streams go on; later calls do nothing.
func (g *Gate) Open() { g.once.Do(func() { close(g.ch) }) }
