package client

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// RPCError is a JSON-RPC error response from the server.
type RPCError struct {
	Method string
	Err    *jsonrpc.Error
}

func (e *RPCError) Error() string {
	return fmt.Sprintf("%s failed: %s (code %d)", e.Method, e.Err.Message, e.Err.Code)
}

// TimeoutError says a request got no answer in time: nothing (no answer,
// no progress) within its idle limit, or no answer within its max time,
// which progress does not extend. Its timers start before the request is
// sent, so a send the server does not take ends the same way.
type TimeoutError struct {
	Method string
	ID     jsonrpc.ID
	After  string // the limit that ran out, e.g. "30s"
	// MaxTime says the max time ran out (Options.HardTimeout), not the
	// idle limit.
	MaxTime bool
	// Sending, when set, is why the request never went out whole: its
	// limit ran out while it was being sent. Nothing is cancelled then.
	Sending error
	// Then says what the client did about it; empty means that it told
	// the server with a cancellation.
	Then string
}

func (e *TimeoutError) Error() string {
	then := e.Then
	if then == "" {
		then = "sent a cancellation"
	}
	limit := "after " + e.After
	if e.MaxTime {
		limit = "after its max time of " + e.After + ", whatever progress said"
	}
	if e.Sending != nil {
		return fmt.Sprintf("%s (id %s) timed out %s while it was being sent: %v", e.Method, e.ID, limit, e.Sending)
	}
	return fmt.Sprintf("%s (id %s) timed out %s; %s", e.Method, e.ID, limit, then)
}

// Unwrap returns why the send failed, when the limit ran out during it.
func (e *TimeoutError) Unwrap() error { return e.Sending }

// ConnectionError says the transport failed or the server went away. Every
// pending request fails with the same ConnectionError.
type ConnectionError struct {
	Err error // the transport's reason (for stdio: exit status and stderr tail)
}

func (e *ConnectionError) Error() string { return "connection lost: " + e.Err.Error() }

// Unwrap returns the transport's reason.
func (e *ConnectionError) Unwrap() error { return e.Err }

// ExchangeError says the transport could not carry one request's answer
// while the connection lives on: an HTTP status with no JSON-RPC answer in
// its body, an answer stream that broke and could not be resumed. A
// transport reports it as the Violation of a message naming the request's
// id (see jsonrpc.Message), or returns it from Send; the request fails at
// once with it.
type ExchangeError struct {
	Status int   // the HTTP status, when there was one
	Err    error // what went wrong
	// Instead holds the ids of the answers the exchange carried in place
	// of the request's own (an HTTP body or answer stream whose response
	// names another id; a null id for none). When one of them answers no
	// request the session sent, the server answered with a wrong id: the
	// engine fails the request as a protocol violation.
	Instead []jsonrpc.ID
}

func (e *ExchangeError) Error() string { return e.Err.Error() }

// Unwrap returns what went wrong.
func (e *ExchangeError) Unwrap() error { return e.Err }

// ProtocolError says the server broke the protocol: an unsupported version, a
// malformed handshake answer, a response of the wrong shape or with a
// broken envelope.
type ProtocolError struct {
	Msg string
	Err error // what was wrong, when Msg only says where (a *jsonrpc.EnvelopeError), or nil
}

func (e *ProtocolError) Error() string {
	if e.Err != nil {
		return "protocol violation: " + e.Msg + ": " + e.Err.Error()
	}
	return "protocol violation: " + e.Msg
}

// Unwrap returns what was wrong, if anything more than Msg says.
func (e *ProtocolError) Unwrap() error { return e.Err }

// ErrClosed is returned for calls made after Close.
var ErrClosed = errors.New("session closed")

// ErrTooManyInFlight is returned when the pending tracker is full and
// neither the request's idle limit nor the caller's context leaves time for
// a slot to free.
var ErrTooManyInFlight = errors.New("too many requests in flight")

// ErrTooManyListens is why a subscriptions/listen stream is not opened: as
// many as Options.MaxListens are open already; end one first.
var ErrTooManyListens = errors.New("too many subscriptions/listen streams open: end one first")

// CancelledError says the client gave up on a request (its context ended or
// Cancel was called) and told the server with notifications/cancelled.
type CancelledError struct {
	Method string
	ID     jsonrpc.ID
	Reason string
	Err    error // context.Canceled or context.DeadlineExceeded
}

func (e *CancelledError) Error() string {
	if e.ID.IsNull() { // not a JSON-RPC request: a gateway stream
		return fmt.Sprintf("%s was cancelled: %s", e.Method, e.Reason)
	}
	return fmt.Sprintf("%s (id %s) was cancelled: %s", e.Method, e.ID, e.Reason)
}

// Unwrap returns the context error behind the cancellation.
func (e *CancelledError) Unwrap() error { return e.Err }

// ErrNotConnected is returned for calls made before Connect has finished.
var ErrNotConnected = errors.New("session is not connected; call Connect first")

// ErrStoppedReading says the server stopped reading what the client
// writes: a message was cut short by its time limit, and since its rest
// would have to go out before anything else, nothing more can be sent on
// the connection. Transports wrap it in their Send errors.
var ErrStoppedReading = errors.New("the server stopped reading")

// errServerClosed is the reason of a ConnectionError when the transport
// ended without naming a cause.
var errServerClosed = errors.New("the server closed the connection")

// GoneError is what a transport's Send returns once its connection has
// ended: ErrClosed after a clean Close, otherwise a ConnectionError carrying
// why (or, when nothing is known, the fallback sentence).
func GoneError(closing bool, why error, fallback string) error {
	if closing && why == nil {
		return ErrClosed
	}
	if why == nil {
		why = errors.New(fallback)
	}
	return &ConnectionError{Err: why}
}

// unauthorized reports whether err says the server refused the request
// for want of authorization (HTTP 401 or 403), or authorizing failed.
func unauthorized(err error) bool {
	var xe *ExchangeError
	return errors.As(err, &xe) && (xe.Status == http.StatusUnauthorized || xe.Status == http.StatusForbidden)
}
