package capture

import "sync"

// OnConn returns a Tap that hands frames and notes to t with suffix added
// to every connection name they hold ("#2" for the second connection of a
// session), so that the request ids of two connections stay apart.
func OnConn(t Tap, suffix string) Tap { return onConn{t, suffix} }

type onConn struct {
	tap    Tap
	suffix string
}

// Append renames the frame's connection and hands it on.
func (c onConn) Append(f *Frame) uint64 {
	f.Conn += c.suffix
	return c.tap.Append(f)
}

// Note renames the note's connections and hands it on.
func (c onConn) Note(e Event) { c.tap.Note(e.onConn(c.suffix)) }

// Serialized returns a Tap that hands each frame and note to t under one
// lock, so that every sink of t sees them in one order even when two
// transport goroutines report at once (the control stream and the
// datagrams of MCP-Flow): a recording teed after a Store holds the frames
// in the Store's order, and a replay numbers them as live.
func Serialized(t Tap) Tap { return &serialized{tap: t} }

type serialized struct {
	mu  sync.Mutex
	tap Tap
}

// Append hands f on under the lock.
func (s *serialized) Append(f *Frame) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tap.Append(f)
}

// Note hands e on under the lock.
func (s *serialized) Note(e Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tap.Note(e)
}
