package client

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// outcome is what ends a request: its result or why it failed.
type outcome struct {
	result json.RawMessage
	err    error
	// notesBefore counts the notifications queued before the response
	// arrived; a call with a progress callback waits until they are handled.
	notesBefore uint64
}

// waiter is one request awaiting its response. Whoever removes it from the
// pending map owns its completion and sends exactly one outcome on done.
type waiter struct {
	id         jsonrpc.ID
	key        string
	method     string
	done       chan outcome  // buffered 1
	bump       chan struct{} // buffered 1: progress arrived, restart the idle timer
	token      string        // key of the progress token, "" when none was sent
	onProgress func(mcp.ProgressNotificationParams)
	// offered are the encodings the request offered (initialize, when the
	// binding negotiates one): its result settles which the link speaks.
	offered []string
}

func newWaiter(id jsonrpc.ID, method string) *waiter {
	return &waiter{
		id:     id,
		key:    id.Key(),
		method: method,
		done:   make(chan outcome, 1),
		bump:   make(chan struct{}, 1),
	}
}

// register adds w to the pending tracker, or returns why the session cannot
// take requests.
func (s *Session) register(w *waiter) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failure != nil {
		return s.failure
	}
	s.pending[w.key] = w
	if w.token != "" {
		s.progress[w.token] = w
	}
	return nil
}

// take removes w from the tracker and reports whether it was still there,
// that is whether the caller now owns its completion.
func (s *Session) take(w *waiter) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending[w.key] != w {
		return false
	}
	delete(s.pending, w.key)
	s.forgetProgressLocked(w)
	return true
}

// takeKey removes and returns the waiter pending under key, if any.
func (s *Session) takeKey(key string) *waiter {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.pending[key]
	if w == nil {
		return nil
	}
	delete(s.pending, key)
	s.forgetProgressLocked(w)
	return w
}

func (s *Session) forgetProgressLocked(w *waiter) {
	if w.token != "" && s.progress[w.token] == w {
		delete(s.progress, w.token)
	}
}

// Nudge restarts the idle timer of every request awaiting its answer: the
// transport is working on the client's behalf meanwhile (an OAuth
// authorization went a step further). The max time is not extended.
func (s *Session) Nudge() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, w := range s.pending {
		w.nudge()
	}
}

// nudge restarts w's idle timer.
func (w *waiter) nudge() {
	select {
	case w.bump <- struct{}{}:
	default:
	}
}

// progressWaiter returns the waiter a progress token belongs to, after
// nudging its idle timer.
func (s *Session) progressWaiter(token jsonrpc.ID) *waiter {
	s.mu.Lock()
	w := s.progress[token.Key()]
	s.mu.Unlock()
	if w == nil {
		return nil
	}
	w.nudge()
	return w
}
