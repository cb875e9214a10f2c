package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/mcpscope/mcpscope/proto"
)

// CodeClientBusy is the JSON-RPC error code of the answer to a server
// request the client refused because MaxServerRequests were already being
// answered: the first of JSON-RPC's implementation-defined codes.
const CodeClientBusy = proto.CodeServerError

// maxQueuedAnswers bounds the answers decided on the reader (ping, busy
// refusals) that wait to be sent; past it the reader waits for room, so a
// server that sends requests faster than it reads their answers is slowed
// down rather than ignored.
const maxQueuedAnswers = 1024

// BusyData is the data of a CodeClientBusy error: how many of the server's
// requests were being answered, and the most the client answers at once.
type BusyData struct {
	InFlight int `json:"inFlight"`
	Limit    int `json:"limit"`
}

// busyError is the answer to a request refused with inFlight requests being
// answered.
func busyError(inFlight int) *proto.Error {
	data, _ := json.Marshal(BusyData{InFlight: inFlight, Limit: MaxServerRequests})
	return &proto.Error{Code: CodeClientBusy, Data: data, Message: fmt.Sprintf(
		"the client is busy: %d requests from the server are already in flight, the most it answers at once; try again later", inFlight)}
}

// RefusedServerRequests returns how many requests from the server were
// answered with a CodeClientBusy error because MaxServerRequests were
// already being answered. Every request is answered one way or the other.
func (s *Session) RefusedServerRequests() uint64 { return s.answers.refused.Load() }

// refuseBusy answers a request the client has no room for with a busy error.
func (s *Session) refuseBusy(m *proto.Message) {
	s.answers.refused.Add(1)
	id := *m.ID
	s.answerNow(&proto.Message{JSONRPC: proto.Version, ID: &id, Error: busyError(len(s.handlers))})
}

// answerPing answers a ping from the server with {}.
func (s *Session) answerPing(m *proto.Message) {
	id := *m.ID
	s.answerNow(&proto.Message{JSONRPC: proto.Version, ID: &id, Result: proto.EmptyObject})
}

// answerNow queues an answer decided on the spot: it goes out in order
// from one goroutine, with no handler goroutine of its own.
func (s *Session) answerNow(m *proto.Message) {
	s.answers.push(s.dead, m, s.sendAnswer)
}

// sendAnswer sends one queued answer within the request timeout.
func (s *Session) sendAnswer(m *proto.Message) error {
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.Timeout)
	defer cancel()
	return s.t.Send(ctx, m)
}

// answerQueue holds answers waiting to be sent, at most maxQueuedAnswers,
// and sends them from one goroutine that runs while any are queued. Its
// zero value is ready to use.
type answerQueue struct {
	refused atomic.Uint64 // requests answered with a busy error

	mu      sync.Mutex
	items   []*proto.Message
	sending bool
	broken  bool          // a send found the connection gone: nothing more goes out
	room    chan struct{} // closed when an item leaves a full queue; nil while none waits
}

// push queues m, waiting while the queue is full until there is room, the
// connection is gone or dead is closed (then m is not sent).
func (q *answerQueue) push(dead <-chan struct{}, m *proto.Message, send func(*proto.Message) error) {
	q.mu.Lock()
	for len(q.items) >= maxQueuedAnswers && !q.broken {
		if q.room == nil {
			q.room = make(chan struct{})
		}
		room := q.room
		q.mu.Unlock()
		select {
		case <-room:
		case <-dead:
			return
		}
		q.mu.Lock()
	}
	defer q.mu.Unlock()
	if q.broken {
		return
	}
	q.items = append(q.items, m)
	if !q.sending {
		q.sending = true
		go q.drain(send)
	}
}

// drain sends the queued answers in order until none is left.
func (q *answerQueue) drain(send func(*proto.Message) error) {
	for {
		q.mu.Lock()
		if len(q.items) == 0 {
			q.items, q.sending = nil, false
			q.mu.Unlock()
			return
		}
		m := q.items[0]
		q.items[0] = nil
		q.items = q.items[1:]
		q.wakeLocked()
		q.mu.Unlock()
		if err := send(m); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			// The connection is gone: drop what is queued and wake the
			// reader, which would otherwise wait for room that never comes.
			q.mu.Lock()
			q.broken, q.items, q.sending = true, nil, false
			q.wakeLocked()
			q.mu.Unlock()
			return
		}
	}
}

// wakeLocked tells a waiting push there is room. q.mu is held.
func (q *answerQueue) wakeLocked() {
	if q.room != nil {
		close(q.room)
		q.room = nil
	}
}
