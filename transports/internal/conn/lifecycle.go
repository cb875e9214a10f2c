// Package conn holds what the client transports share about a connection:
// its lifecycle (started, closing, gone and why) and the writer that keeps
// a frame whole on the wire when a Send is cancelled half-way.
package conn

import (
	"fmt"
	"sync"

	"github.com/mcpscope/mcpscope/client"
)

// Lifecycle is the life of one connection, from Start to Done. It is safe
// for concurrent use; the zero value is not usable, call NewLifecycle.
type Lifecycle struct {
	name string // the transport, in errors: "stdio", "MCP-Flow"
	gone string // why Send fails once the connection went without a known reason

	mu      sync.Mutex
	started bool
	closing bool  // the client asked for the end: it is a clean one
	cause   error // why the connection went, set before done closes

	done chan struct{}
	once sync.Once
}

// NewLifecycle returns the lifecycle of a connection not started yet.
// name names the transport in errors ("stdio" gives "the stdio transport
// is not started"); gone is the reason Gone gives when none is known ("the
// server is gone").
func NewLifecycle(name, gone string) *Lifecycle {
	return &Lifecycle{name: name, gone: gone, done: make(chan struct{})}
}

// Start marks the connection started. After Close it returns
// client.ErrClosed, after an earlier Start an error naming the transport.
// begin, when not nil, runs first under the
// lifecycle's lock, so that a concurrent Close waits for it; when it fails,
// its error is returned and the connection stays unstarted. begin must not
// call the lifecycle.
func (l *Lifecycle) Start(begin func() error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.closing:
		return client.ErrClosed
	case l.started:
		return fmt.Errorf("the %s transport was started already", l.name)
	}
	if begin != nil {
		if err := begin(); err != nil {
			return err
		}
	}
	l.started = true
	return nil
}

// Close marks the connection closing, so that the end that follows is a
// clean one, and says whether it had been started.
func (l *Lifecycle) Close() (started bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closing = true
	return l.started
}

// Closing says whether Close was called.
func (l *Lifecycle) Closing() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closing
}

// Fail records err as why the connection goes, unless the client is
// closing or a reason is known already.
func (l *Lifecycle) Fail(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cause == nil && !l.closing {
		l.cause = err
	}
}

// End records cause as why the connection went, unless a reason is known
// already, then runs last (when not nil) with the reason recorded and
// closes Done. Only the first call does anything.
func (l *Lifecycle) End(cause error, last func(reason error)) {
	l.once.Do(func() {
		l.mu.Lock()
		if l.cause == nil {
			l.cause = cause
		}
		reason := l.cause
		l.mu.Unlock()
		if last != nil {
			last(reason)
		}
		close(l.done)
	})
}

// Done is closed when the connection has gone.
func (l *Lifecycle) Done() <-chan struct{} { return l.done }

// Err says why the connection went: nil while it is open and after a clean
// end.
func (l *Lifecycle) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cause
}

// Writable says whether a Send may write at all: client.ErrClosed after
// Close, an error naming the transport before Start, Gone's error once the
// connection has gone, nil otherwise.
func (l *Lifecycle) Writable() error {
	l.mu.Lock()
	started, closing := l.started, l.closing
	l.mu.Unlock()
	switch {
	case closing:
		return client.ErrClosed
	case !started:
		return fmt.Errorf("cannot send: the %s transport is not started", l.name)
	}
	select {
	case <-l.done:
		return l.Gone()
	default:
		return nil
	}
}

// Gone is a Send's error once the connection has gone: client.ErrClosed
// after a clean Close, otherwise a *client.ConnectionError wrapping the
// reason, or the lifecycle's gone sentence when none is known.
func (l *Lifecycle) Gone() error {
	l.mu.Lock()
	closing, cause := l.closing, l.cause
	l.mu.Unlock()
	return client.GoneError(closing, cause, l.gone)
}
