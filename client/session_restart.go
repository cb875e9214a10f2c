package client

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// reinitWait bounds starting a new session after the server forgot one.
const reinitWait = 30 * time.Second

// restartedKey marks, in a Send context, a message sent in a session the
// engine just started because the server forgot the last one.
type restartedKey struct{}

// InRestartedSession reports whether the message sent under ctx goes in a
// session the engine just started after the server forgot the last one
// (Traits.Restarts): a transport then reports a forgotten session as a
// failure, not as one to start again.
func InRestartedSession(ctx context.Context) bool {
	v, _ := ctx.Value(restartedKey{}).(bool)
	return v
}

// reinitCall is a re-initialization in flight, shared by every request
// that met the expired session.
type reinitCall struct {
	done chan struct{}
	err  error
}

// restartSession starts a new session after the server forgot the one
// named expired, once for every message that met it: one that meets it
// while the new session starts waits for that one, and one that meets it
// once the link is in another session (Traits.Link) returns at once. The
// new session is started on a goroutine of its own, bounded by
// reinitWait, so that it outlives any one request; ctx bounds the wait.
// The transport then sends the message again (Traits.Restarts).
func (s *Session) restartSession(ctx context.Context, expired string) error {
	s.mu.Lock()
	c := s.reinit
	if c == nil && s.replaced(expired) {
		s.mu.Unlock()
		return nil // another message started the new session already
	}
	if c == nil {
		c = &reinitCall{done: make(chan struct{})}
		s.reinit = c
		go s.runReinit(c)
	}
	s.mu.Unlock()
	select {
	case <-c.done:
		return c.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// replaced reports whether the link is no longer in the session named
// expired: a new one replaced it already. A transport that tells nothing
// of its link never says so. It is asked under s.mu, which a transport's
// Link never waits for.
func (s *Session) replaced(expired string) bool {
	if s.traits.Link == nil {
		return false
	}
	return s.traits.Link().SessionID != expired
}

// runReinit starts the new session and tells those waiting for it.
func (s *Session) runReinit(c *reinitCall) {
	ctx, cancel := context.WithTimeout(context.Background(), reinitWait)
	defer cancel()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-s.dead:
			cancel()
		case <-stop:
		}
	}()
	err := s.initializeAgain(ctx)
	s.mu.Lock()
	s.reinit = nil
	s.mu.Unlock()
	c.err = err
	close(c.done)
}

// initializeAgain sends the initialize request the session opened with,
// under an id of the engine's own ("mcpscope-initialize-N"), takes its
// answer without handing it to any caller, and says initialized, waiting
// for the transport to have it taken before the messages are sent again.
func (s *Session) initializeAgain(ctx context.Context) error {
	s.mu.Lock()
	s.reinits++
	n, params := s.reinits, s.initParams
	s.mu.Unlock()
	if params == nil {
		return errors.New("the first initialize request cannot be sent again: none was sent")
	}
	ctx = context.WithValue(ctx, restartedKey{}, true)
	_, err := s.ownRequest(ctx, jsonrpc.StringID(fmt.Sprintf("mcpscope-initialize-%d", n)), mcp.MethodInitialize, params)
	var (
		rpc *RPCError
		xe  *ExchangeError
		pe  *ProtocolError
	)
	switch {
	case errors.As(err, &rpc):
		return fmt.Errorf("initialize was refused: %d %s", rpc.Err.Code, rpc.Err.Message)
	case errors.As(err, &xe) && error(xe) != err: // the answer failed, not the sending
		return fmt.Errorf("initialize failed: %w", xe)
	case errors.As(err, &pe) && pe.Err != nil:
		return fmt.Errorf("initialize failed: %w", pe.Err)
	case err != nil:
		return err
	}
	note, err := jsonrpc.NewNotification(mcp.MethodNotifyInitialized, nil)
	if err != nil {
		return err
	}
	return s.t.Send(ctx, note)
}
