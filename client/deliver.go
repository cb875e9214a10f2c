package client

import (
	"github.com/mcpscope/mcpscope/proto"
)

// deliver is the transport's callback for every incoming message. It
// blocks only for back-pressure (server_refusals.go): responses complete
// their waiter through a buffered channel, notifications are queued, server
// requests run on their own goroutines or are answered from a bounded queue.
func (s *Session) deliver(m *proto.Message) {
	if m == nil {
		return
	}
	switch m.Kind() {
	case proto.KindResult, proto.KindError:
		s.deliverResponse(m)
	case proto.KindNotification:
		s.deliverNotification(m)
	case proto.KindRequest:
		s.deliverServerRequest(m)
	}
}

// deliverResponse completes the request the response answers. A response
// whose id is not in flight (late, duplicated or invented) is ignored; the
// capture still shows it.
func (s *Session) deliverResponse(m *proto.Message) {
	if m.ID == nil {
		return
	}
	w := s.takeKey(m.ID.Key())
	if w == nil {
		return
	}
	before := s.notes.queued()
	if m.Error != nil {
		w.done <- outcome{err: &RPCError{Method: w.method, Err: m.Error}, notesBefore: before}
		return
	}
	w.done <- outcome{result: m.Result, notesBefore: before}
}
