package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Re-issue limits of a subscriptions/listen stream that breaks: the wait
// before the next request doubles from listenBackoffStart up to
// listenBackoffCap, and Listen gives up after maxListenBreaks breaks in a
// row with no acknowledgement between them. Variables so tests can shrink
// the waits.
var (
	listenBackoffStart = 250 * time.Millisecond
	listenBackoffCap   = 5 * time.Second
)

const maxListenBreaks = 5

// ListenEventKind says what happened on a subscriptions/listen stream.
type ListenEventKind uint8

// Listen events, in the order a stream meets them.
const (
	// ListenOpened: a subscriptions/listen request is about to go out under
	// ID; Round 1 opens the subscription, a later round re-issues it.
	ListenOpened ListenEventKind = iota
	// ListenAcknowledged: notifications/subscriptions/acknowledged arrived
	// (Message); its params name the notifications the server agreed to.
	ListenAcknowledged
	// ListenNotified: a notification tagged with the subscription's id
	// arrived (Message).
	ListenNotified
	// ListenBroken: the stream broke before the server ended it (Err). The
	// subscription is re-issued under a new id unless Final.
	ListenBroken
)

// String names the kind.
func (k ListenEventKind) String() string {
	switch k {
	case ListenOpened:
		return "opened"
	case ListenAcknowledged:
		return "acknowledged"
	case ListenNotified:
		return "notified"
	case ListenBroken:
		return "broken"
	}
	return "unknown"
}

// ListenEvent is one thing that happened on a subscription.
type ListenEvent struct {
	Kind    ListenEventKind
	ID      jsonrpc.ID       // the subscription id: the id of the request the stream answers
	Round   int              // ListenOpened: 1, then 2, 3… for each re-issue
	Message *jsonrpc.Message // ListenAcknowledged, ListenNotified
	Err     error            // ListenBroken: why
	Final   bool             // ListenBroken: no re-issue follows
	Retry   time.Duration    // ListenBroken: the wait before the re-issue
}

// listener routes the notifications tagged with one subscription id.
type listener struct {
	id      jsonrpc.ID
	onEvent func(ListenEvent)
	acked   chan struct{} // closed by the first acknowledgement
	once    sync.Once

	mu     sync.Mutex
	closed bool // its Listen moved on: late notifications are not reported
}

// report hands ev to onEvent unless the listener was closed.
func (l *listener) report(ev ListenEvent) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed {
		l.onEvent(ev)
	}
}

// close stops reporting; a report in progress finishes first.
func (l *listener) close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
}

// ack records the acknowledgement, once.
func (l *listener) ack() { l.once.Do(func() { close(l.acked) }) }

// WithMaxTime sets the max time of a call's requests (nothing extends it).
// For Listen, which may run as long as the user watches, d <= 0 means no
// max time; for Call it keeps the session's.
func WithMaxTime(d time.Duration) CallOption {
	return func(c *callConfig) {
		switch {
		case d > 0:
			c.hard = d
		case c.listen:
			c.hard = 0
		}
	}
}

// Listen opens a subscriptions/listen stream (2026-07-28) with params and
// reports what happens on it to onEvent, which runs on the engine's
// goroutines (one at a time per kind of source; it must not block long).
// The acknowledgement must come within the idle limit; after it the stream
// may stay silent as long as it likes, up to the max time (none with
// WithMaxTime(0)). A stream the transport reports broken is re-issued under
// a new id after a backoff; Listen gives up after 5 breaks in a row with no
// acknowledgement between them. It returns the server's result when the
// server ends the subscription, or why it ended: a JSON-RPC error, the
// caller's context (*CancelledError, the server told), a *TimeoutError.
// Every tagged notification also reaches the session's other subscribers.
func (s *Session) Listen(ctx context.Context, params any, onEvent func(ListenEvent), opts ...CallOption) (json.RawMessage, error) {
	const method = mcp.MethodSubscriptionsListen
	raw, err := marshalParams(params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	if _, err := s.connectedEra(); err != nil {
		return nil, err
	}
	cfg := s.callConfig(append([]CallOption{func(c *callConfig) { c.listen = true }}, opts...))
	// A stream holds no in-flight slot (it may last as long as the user
	// watches): it holds one of the listen slots for its whole life,
	// re-issues included, and none free is an error at once.
	select {
	case s.listens <- struct{}{}:
		defer func() { <-s.listens }()
	default:
		return nil, fmt.Errorf("%s: %w (%d)", method, ErrTooManyListens, cap(s.listens))
	}
	var hard <-chan time.Time
	deadline := time.Time{}
	if cfg.hard > 0 {
		t := time.NewTimer(cfg.hard)
		defer t.Stop()
		hard, deadline = t.C, time.Now().Add(cfg.hard)
	}
	breaks := 0
	for round := 1; ; round++ {
		result, acked, id, err := s.listenOnce(ctx, raw, cfg, round, hard, deadline, onEvent)
		if err == nil || !s.streamBroke(err) {
			return result, err
		}
		if acked {
			breaks = 0
		}
		breaks++
		wait := min(listenBackoffStart<<(breaks-1), listenBackoffCap)
		final := breaks >= maxListenBreaks
		onEvent(ListenEvent{Kind: ListenBroken, ID: id, Err: err, Final: final, Retry: wait}) // no listener is open here
		if final {
			return nil, fmt.Errorf("%s broke %d times in a row with no acknowledgement between: %w", method, breaks, err)
		}
		if err := s.pause(ctx, wait, hard, cfg, id); err != nil {
			return nil, err
		}
	}
}

// streamBroke reports whether err is a subscription stream the transport
// could not carry on, while the session itself lives: one to re-issue. A
// stream cut after its answer began (no status, or 200) or a gateway's
// transient 502/503/504 is; a server that refused the request (another
// status) is not.
func (s *Session) streamBroke(err error) bool {
	var xe *ExchangeError
	if !errors.As(err, &xe) || s.failureErr() != nil {
		return false
	}
	switch xe.Status {
	case 0, http.StatusOK, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// pause waits d before a re-issue, or returns why the subscription ends.
func (s *Session) pause(ctx context.Context, d time.Duration, hard <-chan time.Time, cfg *callConfig, id jsonrpc.ID) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-hard:
		return &TimeoutError{Method: mcp.MethodSubscriptionsListen, ID: id, After: cfg.hard.String(), MaxTime: true}
	case <-s.dead:
		return s.failureErr()
	case <-ctx.Done():
		return &CancelledError{Method: mcp.MethodSubscriptionsListen, ID: id, Reason: "the client stopped listening", Err: ctx.Err()}
	}
}

// listenOnce sends one subscriptions/listen request and waits until its
// stream ends. acked says whether the server acknowledged it.
func (s *Session) listenOnce(ctx context.Context, params json.RawMessage, cfg *callConfig, round int, hard <-chan time.Time, deadline time.Time, onEvent func(ListenEvent)) (result json.RawMessage, acked bool, id jsonrpc.ID, err error) {
	id = jsonrpc.IntID(s.nextID.Add(1))
	w := newWaiter(id, mcp.MethodSubscriptionsListen)
	if params, err = s.decorate(params, id, cfg); err != nil {
		return nil, false, id, fmt.Errorf("%s: %w", w.method, err)
	}
	msg, err := jsonrpc.NewRequest(id, w.method, params)
	if err != nil {
		return nil, false, id, err
	}
	l := &listener{id: id, onEvent: onEvent, acked: make(chan struct{})}
	if err := s.register(w); err != nil {
		return nil, false, id, err
	}
	s.addListener(l)
	defer s.removeListener(l)
	l.report(ListenEvent{Kind: ListenOpened, ID: id, Round: round})
	// The send and the acknowledgement are bounded by the idle limit, and
	// by what is left of the max time.
	limits := *cfg
	limits.hard = limits.timeout
	if !deadline.IsZero() {
		limits.hard = max(time.Until(deadline), time.Millisecond)
	}
	timers := startTimers(&limits)
	defer timers.stop()
	if err := s.send(ctx, w, msg, timers); err != nil {
		return nil, false, id, err
	}
	ackWait, acks := timers.C(), l.acked
	for {
		select {
		case out := <-w.done:
			// The stream's notifications read before its end reach
			// onEvent first; an acknowledgement among them counts.
			s.notes.waitHandled(ctx, out.notesBefore)
			select {
			case <-l.acked:
				acked = true
			default:
			}
			return out.result, acked, id, out.err
		case <-acks:
			acked, acks, ackWait = true, nil, nil
			timers.stop()
		case <-ackWait:
			expired, maxTime := timers.fired()
			if !expired {
				continue
			}
			if maxTime { // the max time runs out at once on its own timer too
				_, err := s.abandon(w, &TimeoutError{Method: w.method, ID: id, After: cfg.hard.String(), MaxTime: true})
				return nil, acked, id, err
			}
			te := timers.expired(w, false, nil)
			te.Then = "no acknowledgement: " + te.Then
			_, err := s.abandon(w, te)
			return nil, false, id, err
		case <-hard:
			_, err := s.abandon(w, &TimeoutError{Method: w.method, ID: id, After: cfg.hard.String(), MaxTime: true})
			return nil, acked, id, err
		case <-ctx.Done():
			_, err := s.abandon(w, &CancelledError{Method: w.method, ID: id, Reason: "the client stopped listening", Err: ctx.Err()})
			return nil, acked, id, err
		}
	}
}

// addListener routes the notifications tagged with l's id to l.
func (s *Session) addListener(l *listener) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.listeners == nil {
		s.listeners = make(map[string]*listener)
	}
	s.listeners[l.id.Key()] = l
}

// removeListener stops routing to l and closes it: a notification still
// queued for it is not reported after its Listen moved on.
func (s *Session) removeListener(l *listener) {
	s.mu.Lock()
	if s.listeners[l.id.Key()] == l {
		delete(s.listeners, l.id.Key())
	}
	s.mu.Unlock()
	l.close()
}

// listenerOf returns the listener a notification is tagged for, if any:
// its params._meta names the subscription id of a stream in flight. An
// acknowledgement marks the listener acknowledged at once.
func (s *Session) listenerOf(m *jsonrpc.Message) *listener {
	s.mu.Lock()
	none := len(s.listeners) == 0
	s.mu.Unlock()
	if none || len(m.Params) == 0 {
		return nil
	}
	id, ok := mcp.SubscriptionOf(m.Params)
	if !ok {
		return nil
	}
	s.mu.Lock()
	l := s.listeners[id.Key()]
	s.mu.Unlock()
	if l != nil && m.Method == mcp.MethodNotifySubscriptionsAck {
		l.ack()
	}
	return l
}

// listenEvent is what a tagged notification tells its listener.
func listenEvent(l *listener, m *jsonrpc.Message) ListenEvent {
	kind := ListenNotified
	if m.Method == mcp.MethodNotifySubscriptionsAck {
		kind = ListenAcknowledged
	}
	return ListenEvent{Kind: kind, ID: l.id, Message: m}
}
