package client

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Bounds of the answers decided on the reader (ping, busy refusals) that
// wait to be sent. The reader never waits for room: past either bound the
// server has stopped reading, and the connection fails. 20,000 pings in a
// row fit with room to spare.
const (
	maxQueuedAnswers     = 1 << 15
	maxQueuedAnswerBytes = 8 << 20
)

// StoppedReadingError says the answers queued for the server could not go
// out: they passed the queue's bound, or the one being sent was not taken
// within the request timeout. The connection is failed with it (wrapped in
// a *ConnectionError). It wraps ErrStoppedReading only: the send's error
// is named in the text, but the connection failed, so no context deadline
// makes it read as one request timing out.
type StoppedReadingError struct {
	Queued   int           // answers left unsent: those waiting (past the bound, the one that passed it included) and the one whose send gave up, if any
	Bytes    int           // their encoded size
	MaxQueue int           // the bound in messages, when it was passed (else 0)
	MaxBytes int           // the bound in bytes, when it was passed
	Timeout  time.Duration // the send's time limit, when a send gave up
	Err      error         // why the send gave up, or nil
}

func (e *StoppedReadingError) Error() string {
	msg := fmt.Sprintf("%s: %d messages / %d bytes queued for it", ErrStoppedReading, e.Queued, e.Bytes)
	if e.MaxQueue > 0 {
		return msg + fmt.Sprintf(", past the bound of %d messages / %d bytes", e.MaxQueue, e.MaxBytes)
	}
	if e.Err == nil {
		return msg
	}
	return msg + fmt.Sprintf(", not taken within %s (%v)", e.Timeout, e.Err)
}

// Unwrap returns ErrStoppedReading.
func (e *StoppedReadingError) Unwrap() error { return ErrStoppedReading }

// answerNow queues an answer decided on the spot: it goes out in order
// from one goroutine, with no handler goroutine of its own. It never
// waits.
func (s *Session) answerNow(m *jsonrpc.Message) { s.answers.push(m) }

// sendAnswer sends one queued answer within the request timeout.
func (s *Session) sendAnswer(m *jsonrpc.Message) error {
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.Timeout)
	defer cancel()
	return s.t.Send(ctx, m)
}

// answersStuck fails the session because the server stopped reading its
// answers, and closes the connection: nothing written after them could
// reach the server.
func (s *Session) answersStuck(err *StoppedReadingError) {
	s.mu.Lock()
	s.failLocked(&ConnectionError{Err: err})
	for _, cancel := range s.serverReqs {
		cancel()
	}
	s.mu.Unlock()
	go s.t.Close()
}

// queuedAnswer is one answer waiting to be sent, with its encoded size.
type queuedAnswer struct {
	m    *jsonrpc.Message
	size int
}

// answerQueue holds answers waiting to be sent, at most maxQueuedAnswers
// and maxQueuedAnswerBytes, and sends them from one goroutine that runs
// while any are queued.
type answerQueue struct {
	send    func(*jsonrpc.Message) error // sends one answer within timeout
	stuck   func(*StoppedReadingError)   // fails the connection
	timeout time.Duration

	mu       sync.Mutex
	items    []queuedAnswer
	bytes    int
	draining bool // a goroutine sends what is queued
	ended    bool // the connection went or is failed: nothing more goes out
}

// push queues m without waiting. Past the queue's bounds the connection
// is failed and m, like everything queued, is dropped.
func (q *answerQueue) push(m *jsonrpc.Message) {
	size := 0
	if b, err := m.EncodeJSON(); err == nil {
		size = len(b)
	}
	q.mu.Lock()
	if q.ended {
		q.mu.Unlock()
		return
	}
	q.items = append(q.items, queuedAnswer{m: m, size: size})
	q.bytes += size
	if len(q.items) > maxQueuedAnswers || q.bytes > maxQueuedAnswerBytes {
		err := q.endLocked(nil, nil)
		err.MaxQueue, err.MaxBytes = maxQueuedAnswers, maxQueuedAnswerBytes
		q.mu.Unlock()
		q.stuck(err)
		return
	}
	if !q.draining {
		q.draining = true
		go q.drain()
	}
	q.mu.Unlock()
}

// endLocked ends the queue, dropping what it holds, and returns the
// error that names what was left unsent: the queued answers and failed,
// the one whose send gave up with why (nil: none). q.mu is held.
func (q *answerQueue) endLocked(failed *queuedAnswer, why error) *StoppedReadingError {
	err := &StoppedReadingError{Queued: len(q.items), Bytes: q.bytes, Timeout: q.timeout, Err: why}
	if failed != nil {
		err.Queued++
		err.Bytes += failed.size
	}
	q.ended, q.items, q.bytes = true, nil, 0
	return err
}

// drain sends the queued answers in order until none is left. A send the
// server did not take in time fails the connection; one that found the
// connection gone ends the queue quietly (the session fails with the
// transport's own reason); any other failure (one HTTP POST refused)
// loses that answer only, and the transport says so.
func (q *answerQueue) drain() {
	for {
		q.mu.Lock()
		if q.ended || len(q.items) == 0 {
			q.items, q.draining = nil, false
			q.mu.Unlock()
			return
		}
		item := q.items[0]
		q.items[0] = queuedAnswer{}
		q.items = q.items[1:]
		q.bytes -= item.size
		q.mu.Unlock()
		err := q.send(item.m)
		if err == nil || !stoppedReading(err) && !gone(err) {
			continue
		}
		q.mu.Lock()
		q.draining = false
		q.mu.Unlock()
		q.fail(&item, err)
		return
	}
}

// fail ends the queue after the send of failed gave up with err: when
// the server did not take it in time, the connection fails naming failed
// and everything queued; when the connection is gone already, quietly.
func (q *answerQueue) fail(failed *queuedAnswer, err error) {
	q.mu.Lock()
	if q.ended {
		q.mu.Unlock()
		return
	}
	ended := q.endLocked(failed, err)
	q.mu.Unlock()
	if stoppedReading(err) {
		q.stuck(ended)
	}
}

// stoppedReading says a send was not taken in time.
func stoppedReading(err error) bool {
	return errors.Is(err, ErrStoppedReading) || errors.Is(err, context.DeadlineExceeded)
}

// gone says a send found the connection ended.
func gone(err error) bool {
	var ce *ConnectionError
	return errors.Is(err, ErrClosed) || errors.As(err, &ce)
}
