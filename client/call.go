package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// CallOption adjusts one Call.
type CallOption func(*callConfig)

type callConfig struct {
	timeout    time.Duration
	hard       time.Duration
	onProgress func(mcp.ProgressNotificationParams)
	onRound    func(round int, id jsonrpc.ID)
	sent       jsonrpc.ID // the id of the call's latest request
	handshake  bool       // the request opens the session (Connect)
	offered    []string   // the encodings the request offers (negotiate.go)
	// linger keeps a request that ran out of time pending and uncancelled
	// (its waiter goes to lingering): the caller settles it.
	linger    bool
	lingering *waiter
	listen    bool // the call is a Listen: a max time of 0 means none

	// meta is added to params._meta (WithMeta); notesFirst holds the
	// result until the notifications before it are handled.
	meta       []member
	notesFirst bool
}

// WithProgress asks for progress: each request of the call carries
// _meta.progressToken (its own id) and fn gets every progress notification
// for it, in arrival order. Progress also restarts the idle timer.
func WithProgress(fn func(mcp.ProgressNotificationParams)) CallOption {
	return func(c *callConfig) { c.onProgress = fn }
}

// WithTimeout sets the idle limit of this call's requests (the max time
// grows to match when d is longer).
func WithTimeout(d time.Duration) CallOption {
	return func(c *callConfig) {
		if d > 0 {
			c.timeout = d
			c.hard = max(c.hard, d)
		}
	}
}

// WithRounds reports each JSON-RPC request a call sends, before it is sent:
// round 1 is the first; in the modern era each input_required retry is the
// next round under a new id. The UI groups the rounds of one logical call
// with it, and Cancel takes the id.
func WithRounds(fn func(round int, id jsonrpc.ID)) CallOption {
	return func(c *callConfig) { c.onRound = fn }
}

func (s *Session) callConfig(opts []CallOption) *callConfig {
	c := &callConfig{timeout: s.opts.Timeout, hard: s.opts.HardTimeout}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Call sends one request and waits for its result. A JSON-RPC error answer
// is an *RPCError; no answer in time is a *TimeoutError; a lost connection
// is the session's *ConnectionError. In the modern era the request carries
// the _meta triple, and input_required results are answered through the
// Handler and retried until the server answers for good.
func (s *Session) Call(ctx context.Context, method string, params any, opts ...CallOption) (json.RawMessage, error) {
	raw, err := marshalParams(params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	era, err := s.connectedEra()
	if err != nil {
		return nil, err
	}
	cfg := s.callConfig(opts)
	result, err := s.roundTrip(ctx, method, raw, cfg, 1)
	if err == nil && era == EraModern {
		result, err = s.resolveInput(ctx, method, raw, result, cfg)
	}
	if err == nil && method == mcp.MethodToolsCall {
		s.called.note(raw)
	}
	if err == nil {
		s.learnAnnotations(method, result)
	}
	return result, err
}

// connectedEra returns the era, or why requests cannot be sent.
func (s *Session) connectedEra() (Era, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failure != nil {
		return EraUnknown, s.failure
	}
	if s.era == EraUnknown {
		return EraUnknown, ErrNotConnected
	}
	return s.era, nil
}

// roundTrip sends one JSON-RPC request and waits for its response.
func (s *Session) roundTrip(ctx context.Context, method string, params json.RawMessage, cfg *callConfig, round int) (json.RawMessage, error) {
	if err := s.acquire(ctx, method, cfg); err != nil {
		return nil, err
	}
	defer func() { <-s.slots }()

	id := jsonrpc.IntID(s.nextID.Add(1))
	w := newWaiter(id, method)
	params, err := s.decorate(params, id, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	if cfg.onProgress != nil {
		w.token, w.onProgress = id.Key(), cfg.onProgress
	}
	w.offered = cfg.offered
	msg, err := jsonrpc.NewRequest(id, method, params)
	if err != nil {
		return nil, err
	}
	if err := s.register(w); err != nil {
		return nil, err
	}
	cfg.sent = id
	if cfg.onRound != nil {
		cfg.onRound(round, id)
	}
	timers := startTimers(cfg)
	defer timers.stop()
	if err := s.send(ctx, w, msg, timers); err != nil {
		return nil, err
	}
	// The server took the whole request: a sign of life.
	timers.bump()
	return s.await(ctx, w, timers)
}

// send writes the request of w within its limits. A limit that runs out
// while it is being sent fails it with a *TimeoutError and no cancellation:
// the server never got the request whole.
func (s *Session) send(ctx context.Context, w *waiter, msg *jsonrpc.Message, timers *requestTimers) error {
	limited := timers.sendContext(ctx)
	defer limited.release()
	sendCtx, err := s.withCallHeaders(limited, msg)
	if err == nil {
		err = s.t.Send(sendCtx, msg)
	}
	if err == nil {
		return nil
	}
	if !s.take(w) {
		_, err := s.settle(w)
		return err
	}
	if ferr := s.failureErr(); ferr != nil {
		return ferr
	}
	if sendCtx.Err() != nil && ctx.Err() == nil {
		return timers.sendExpired(w, err)
	}
	return fmt.Errorf("sending %s (id %s): %w", w.method, w.id, err)
}

// acquire takes an in-flight slot, waiting while the tracker is full. The
// wait is no sign of life: it ends with the request's idle limit (or its
// max time when that is shorter), so a full tracker never holds a request
// past its limits, whatever ctx says.
func (s *Session) acquire(ctx context.Context, method string, cfg *callConfig) error {
	select {
	case s.slots <- struct{}{}:
		return nil
	default:
	}
	limit := min(cfg.timeout, cfg.hard) // both set: a Call's limits, as its timers take them
	expired := time.NewTimer(limit)
	defer expired.Stop()
	select {
	case s.slots <- struct{}{}:
		return nil
	case <-s.dead:
		return s.failureErr()
	case <-expired.C:
		return fmt.Errorf("%s: %w: none of the %d answered within %s", method, ErrTooManyInFlight, cap(s.slots), limit)
	case <-ctx.Done():
		return fmt.Errorf("%s: %w: %w", method, ErrTooManyInFlight, ctx.Err())
	}
}

// sendable says why nothing can be sent, or nil when the transport runs.
func (s *Session) sendable() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failure != nil {
		return s.failure
	}
	if !s.started {
		return ErrNotConnected
	}
	return nil
}

func (s *Session) failureErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failure
}

// decorate adds what the era and the options put in params._meta.
func (s *Session) decorate(params json.RawMessage, id jsonrpc.ID, cfg *callConfig) (json.RawMessage, error) {
	s.mu.Lock()
	var meta []member
	if s.era == EraModern {
		meta = append(meta, s.modernMetaLocked()...)
	}
	s.mu.Unlock()
	params, err := userMeta(params, cfg)
	if err != nil {
		return nil, err
	}
	if len(meta) > 0 {
		if params, err = withMeta(params, meta, false); err != nil {
			return nil, err
		}
	}
	if cfg.onProgress != nil {
		token := []member{{Key: mcp.MetaProgressToken, Value: mustJSON(id)}}
		if params, err = withMeta(params, token, true); err != nil {
			return nil, err
		}
	}
	return params, nil
}

// await waits for w's response, its timers, the caller's context or the
// end of the session.
func (s *Session) await(ctx context.Context, w *waiter, timers *requestTimers) (json.RawMessage, error) {
	for {
		select {
		case out := <-w.done:
			if timers.cfg.onProgress != nil || timers.cfg.notesFirst {
				// Progress read before the response reaches the caller first.
				s.notes.waitHandled(ctx, out.notesBefore)
			}
			return out.result, out.err
		case <-w.bump:
			timers.bump()
		case <-timers.C():
			if expired, maxTime := timers.fired(); expired {
				return s.expire(w, timers, maxTime)
			}
		case <-ctx.Done():
			return s.abandon(w, &CancelledError{Method: w.method, ID: w.id, Reason: "the client stopped waiting", Err: ctx.Err()})
		}
	}
}

// abandon gives up on w: unless its response won the race, the server is
// told with notifications/cancelled (never for initialize) and the call
// fails with err.
func (s *Session) abandon(w *waiter, err error) (json.RawMessage, error) {
	if !s.take(w) {
		return s.settle(w)
	}
	if cancellable(w.method) {
		_ = s.sendCancelled(w.id, w.method, cancelReason(err))
	}
	return nil, err
}

// settle returns the outcome of a waiter someone else completed.
func (s *Session) settle(w *waiter) (json.RawMessage, error) {
	out := <-w.done
	return out.result, out.err
}

func cancelReason(err error) string {
	var te *TimeoutError
	if errors.As(err, &te) {
		return "timed out after " + te.After
	}
	var ce *CancelledError
	if errors.As(err, &ce) {
		return ce.Reason
	}
	return err.Error()
}

// Cancel gives up on the request with id: the pending Call fails with a
// *CancelledError and the server is told with reason (notifications/cancelled,
// or the transport's own means: cancel.go), except for initialize, which the
// spec forbids cancelling: only the wait ends.
func (s *Session) Cancel(id jsonrpc.ID, reason string) error {
	w := s.takeKey(id.Key())
	if w == nil {
		return fmt.Errorf("no request with id %s is in flight", id)
	}
	w.done <- outcome{err: &CancelledError{Method: w.method, ID: id, Reason: reason, Err: context.Canceled}}
	if !cancellable(w.method) {
		return nil // the spec forbids cancelling initialize: the wait ends, nothing is sent
	}
	if err := s.sendCancelled(id, w.method, reason); err != nil {
		return fmt.Errorf("sending the cancellation of id %s: %w", id, err)
	}
	return nil
}

// Notify sends one notification, within the idle limit (Options.Timeout)
// and the max time.
func (s *Session) Notify(ctx context.Context, method string, params any) error {
	if err := s.sendable(); err != nil {
		return err
	}
	raw, err := marshalParams(params)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	msg, err := jsonrpc.NewNotification(method, raw)
	if err != nil {
		return err
	}
	limit := s.sendLimit()
	sendCtx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	if err := s.t.Send(sendCtx, msg); err != nil {
		if ferr := s.failureErr(); ferr != nil {
			return ferr
		}
		if sendCtx.Err() != nil && ctx.Err() == nil {
			return fmt.Errorf("sending %s timed out after %s: %w", method, limit, err)
		}
		return fmt.Errorf("sending %s: %w", method, err)
	}
	return nil
}
