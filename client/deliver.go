package client

import (
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// deliver is the transport's callback for every incoming message. It
// never waits on a write: responses complete their waiter through a
// buffered channel, notifications are queued, server requests run on their
// own goroutines or are answered from a bounded queue (answer_queue.go).
func (s *Session) deliver(m *jsonrpc.Message) {
	if m == nil {
		return
	}
	if m.Violation != nil {
		s.deliverViolation(m)
		return
	}
	switch m.Kind() {
	case jsonrpc.KindResult, jsonrpc.KindError:
		s.deliverResponse(m)
	case jsonrpc.KindNotification:
		s.deliverNotification(m)
	case jsonrpc.KindRequest:
		s.deliverServerRequest(m)
	}
}

// deliverResponse completes the request the response answers. A response
// whose id is not in flight is dropped (the capture still shows it) and,
// when it is a duplicate or names an id never sent, reported to
// Options.OnStrayAnswer. A response whose id is the string twin of an
// integer id in flight ("3" for 3), or the reverse, fails that request as
// a protocol violation.
func (s *Session) deliverResponse(m *jsonrpc.Message) {
	var id jsonrpc.ID // an answer with id null names no request
	if m.ID != nil {
		id = *m.ID
	}
	w, twin := s.takeAnswered(id)
	if w == nil {
		s.strayAnswer(id, m.Error)
		return
	}
	s.answered.add(w.key)
	if w.offered != nil && !twin && m.Error == nil {
		if err := s.negotiate(w, m.Result); err != nil {
			w.done <- outcome{err: err}
			return
		}
	}
	before := s.notes.queued()
	switch {
	case twin:
		w.done <- outcome{err: answerViolation(w, fmt.Errorf("it carries the id %s where the request's id is %s", id, w.id)), notesBefore: before}
	case m.Error != nil:
		w.done <- outcome{err: &RPCError{Method: w.method, Err: m.Error}, notesBefore: before}
	default:
		w.done <- outcome{result: m.Result, notesBefore: before}
	}
}

// deliverViolation fails at once the request that a message with a broken
// envelope answers, by every id it names. A broken request or notification
// from the server answers nothing; the capture shows it with its error.
func (s *Session) deliverViolation(m *jsonrpc.Message) {
	var (
		env *jsonrpc.EnvelopeError
		ids []jsonrpc.ID
	)
	switch {
	case errors.As(m.Violation, &env) && env.Request:
		return
	case env != nil:
		ids = env.IDs
	case m.ID != nil:
		ids = []jsonrpc.ID{*m.ID}
	}
	before := s.notes.queued()
	for _, id := range ids {
		if w, _ := s.takeAnswered(id); w != nil {
			s.answered.add(w.key)
			err := answerViolation(w, m.Violation)
			if a, ok := s.answeredInstead(m.Violation); ok {
				err = &ProtocolError{Msg: fmt.Sprintf("%s (id %s) was answered with %s", w.method, w.id, a.what()), Err: m.Violation}
			}
			w.done <- outcome{err: err, notesBefore: before}
		}
	}
}

// answerViolation is the error of a request whose answer broke the
// protocol, or whose exchange the transport could not carry.
func answerViolation(w *waiter, why error) error {
	var xe *ExchangeError
	if errors.As(why, &xe) {
		return fmt.Errorf("%s (id %s): %w", w.method, w.id, why)
	}
	return &ProtocolError{Msg: fmt.Sprintf("the answer to %s (id %s) is unusable", w.method, w.id), Err: why}
}

// takeAnswered removes and returns the waiter an answer with id completes:
// the one pending under id, or else the one pending under its twin (the
// integer 3 for the string "3" and the reverse), with twin set.
func (s *Session) takeAnswered(id jsonrpc.ID) (w *waiter, twin bool) {
	if id.IsNull() {
		return nil, false
	}
	if w := s.takeKey(id.Key()); w != nil {
		return w, false
	}
	if other, ok := idTwin(id); ok {
		if w := s.takeKey(other.Key()); w != nil {
			return w, true
		}
	}
	return nil, false
}
