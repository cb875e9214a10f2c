package client

import (
	"context"
	"sync"
	"time"
)

// sendDeadline is the context a request is sent under: the caller's
// context bounded by a deadline, as context.WithDeadline makes it, but
// made lazily. Nothing watches the deadline until something asks for
// Done (a write that has to wait, an HTTP exchange): only then is the
// context.WithDeadline made, and from then on the context is that one. A
// send that needs no Done (a line a pipe takes at once) then costs
// neither a timer nor a registration with the caller's context.
type sendDeadline struct {
	parent context.Context
	at     time.Time

	mu       sync.Mutex
	armed    context.Context // the context.WithDeadline, once made
	cancel   context.CancelFunc
	released bool
}

// withSendDeadline returns ctx bounded by at; release ends it.
func withSendDeadline(ctx context.Context, at time.Time) *sendDeadline {
	return &sendDeadline{parent: ctx, at: at}
}

// arm returns the context.WithDeadline, making it the first time.
func (c *sendDeadline) arm() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.armed == nil {
		c.armed, c.cancel = context.WithDeadline(c.parent, c.at)
		if c.released {
			c.cancel()
		}
	}
	return c.armed
}

// current returns the context.WithDeadline when it was made, or nil.
func (c *sendDeadline) current() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.armed
}

// release ends the context, as a CancelFunc does.
func (c *sendDeadline) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.released = true
	if c.cancel != nil {
		c.cancel()
	}
}

// Deadline is the earlier of at and the caller's deadline.
func (c *sendDeadline) Deadline() (time.Time, bool) {
	if d, ok := c.parent.Deadline(); ok && d.Before(c.at) {
		return d, true
	}
	return c.at, true
}

// Done makes the context.WithDeadline and returns its channel.
func (c *sendDeadline) Done() <-chan struct{} { return c.arm().Done() }

// Err is the caller's context's error, or context.DeadlineExceeded once at
// has passed (the context.WithDeadline is then made, so that Done and the
// cause agree), or context.Canceled once released.
func (c *sendDeadline) Err() error {
	if armed := c.current(); armed != nil {
		return armed.Err()
	}
	if err := c.parent.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	released := c.released
	c.mu.Unlock()
	if released || !time.Now().Before(c.at) {
		return c.arm().Err()
	}
	return nil
}

// Value looks key up in the context.WithDeadline once it is made (or at
// has passed), in the caller's context before.
func (c *sendDeadline) Value(key any) any {
	if armed := c.current(); armed != nil {
		return armed.Value(key)
	}
	if !time.Now().Before(c.at) {
		return c.arm().Value(key)
	}
	return c.parent.Value(key)
}
