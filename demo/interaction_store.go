package demo

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Store limits of one connection.
const (
	maxLiveSessions  = 64  // sessions not yet ended
	maxEndedSessions = 256 // ended sessions remembered, so that a late request gets the right error
	ackWait          = time.Minute
	minWarning       = time.Second // the timeout warning comes at least this long before expiry
)

// liveSession is one stateful session of a connection.
type liveSession struct {
	id string
	w  *wizard

	mu     sync.Mutex
	st     *sessionState
	gen    uint64 // bumped whenever the timers are re-armed; a stale timer does nothing
	timers [2]*time.Timer
	ended  bool // terminal: timers stopped, answers dropped
}

// sessionStore holds the stateful sessions of one connection: the live
// ones and, bounded, the ids of ended ones with their final state.
type sessionStore struct {
	c     *Conn
	mu    sync.Mutex
	byID  map[string]*liveSession
	ended []string // ids of ended sessions, oldest first
}

// newSessionStore is the empty store of c.
func newSessionStore(c *Conn) *sessionStore {
	return &sessionStore{c: c, byID: make(map[string]*liveSession)}
}

// newSessionID is an unpredictable session id (seed 002, "Session
// Isolation"): 128 random bits.
func newSessionID() string { return "session_" + rand.Text() }

// add registers a new session, refusing more than maxLiveSessions.
func (s *sessionStore) add(ls *liveSession) *jsonrpc.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.byID)-len(s.ended) >= maxLiveSessions {
		return rpcError(mcp.CodeInvalidRequest, nil, "%d interactive sessions are open on this connection already; cancel one first", maxLiveSessions)
	}
	s.byID[ls.id] = ls
	return nil
}

// lookup finds a session, live or ended; -32001 when there is none.
func (s *sessionStore) lookup(id string) (*liveSession, *jsonrpc.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ls, ok := s.byID[id]; ok {
		return ls, nil
	}
	return nil, interactionError(mcp.CodeSessionNotFound, id, "session not found: %s", id)
}

// end cleans a session up once it is terminal: timers stopped, answers
// and history dropped (the state and metadata stay for getState). ls.mu is
// held; it reports whether the caller must retire the session.
func (ls *liveSession) end() bool {
	if ls.ended || !ls.st.State.Terminal() {
		return false
	}
	ls.ended = true
	ls.gen++
	for _, t := range ls.timers {
		if t != nil {
			t.Stop()
		}
	}
	ls.st.Data, ls.st.Defaults, ls.st.History, ls.st.Refused = nil, nil, nil, nil
	return true
}

// retire counts an ended session among the remembered ones, forgetting
// the oldest past maxEndedSessions.
func (s *sessionStore) retire(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended = append(s.ended, id)
	if len(s.ended) > maxEndedSessions {
		delete(s.byID, s.ended[0])
		s.ended = s.ended[1:]
	}
}

// settle ends and retires ls if it is terminal; ls.mu is held and released.
func (s *sessionStore) settle(ls *liveSession) {
	retire := ls.end()
	ls.mu.Unlock()
	if retire {
		s.retire(ls.id)
	}
}

// closeAll stops every timer when the connection closes.
func (s *sessionStore) closeAll() {
	s.mu.Lock()
	all := make([]*liveSession, 0, len(s.byID))
	for _, ls := range s.byID {
		all = append(all, ls)
	}
	s.mu.Unlock()
	for _, ls := range all {
		ls.mu.Lock()
		ls.gen++
		for _, t := range ls.timers {
			if t != nil {
				t.Stop()
			}
		}
		ls.mu.Unlock()
	}
}

// arm (re)starts the session's timers from its last activity: the warning
// interaction.continue when a fifth of the timeout remains (at least
// minWarning before, at once for a shorter timeout), and the expiry. ls.mu
// is held.
func (s *sessionStore) arm(ls *liveSession) {
	ls.gen++
	gen := ls.gen
	for _, t := range ls.timers {
		if t != nil {
			t.Stop()
		}
	}
	left := time.Until(ls.st.expiresAt())
	timeout := time.Duration(ls.st.TimeoutMs) * time.Millisecond
	ls.timers[0] = time.AfterFunc(left-warningLead(timeout), func() { s.warn(ls, gen) })
	ls.timers[1] = time.AfterFunc(left, func() { s.expire(ls, gen) })
}

// warningLead is how long before expiry the warning goes out: a fifth of
// the timeout, at least minWarning, at most the whole timeout.
func warningLead(timeout time.Duration) time.Duration {
	return min(max(timeout/5, minWarning), timeout)
}

// warn sends the timeout warning, unless the timers were re-armed since.
func (s *sessionStore) warn(ls *liveSession, gen uint64) {
	ls.mu.Lock()
	if gen != ls.gen || ls.st.State.Terminal() {
		ls.mu.Unlock()
		return
	}
	at := ls.st.expiresAt()
	p := mcp.InteractionContinueParams{SessionID: ls.id, ExpiresAt: at.UnixMilli(),
		Message: fmt.Sprintf("session expires in %s without an answer", time.Until(at).Round(time.Millisecond))}
	ls.mu.Unlock()
	s.c.tell(mcp.MethodInteractionContinue, p, nil)
}

// expire moves a session that saw no activity for its timeout to error;
// later requests get -32002.
func (s *sessionStore) expire(ls *liveSession, gen uint64) {
	ls.mu.Lock()
	if gen != ls.gen || ls.st.State.Terminal() {
		ls.mu.Unlock()
		return
	}
	ls.st.Expired = true
	_ = ls.st.moveTo(ls.id, mcp.InteractionError)
	s.settle(ls)
}

// failed moves a session to error after the client refused one of its
// server→client requests (a client without interactive support answers
// interaction.prompt with -32601, for one).
func (s *sessionStore) failed(ls *liveSession) func(error) {
	return func(err error) {
		var rerr *jsonrpc.Error
		if !errors.As(err, &rerr) {
			return // no answer (yet): the user may still respond
		}
		ls.mu.Lock()
		if ls.st.State.Terminal() {
			ls.mu.Unlock()
			return
		}
		_ = ls.st.moveTo(ls.id, mcp.InteractionError)
		s.settle(ls)
	}
}

// tell sends a server→client request now, and waits for its answer on a
// goroutine (at most ackWait); onErr, if set, learns of a failure.
func (c *Conn) tell(method string, params any, onErr func(error)) {
	report := func(err error) {
		c.srv.log.Debug("server request failed", "method", method, "err", err)
		if onErr != nil {
			onErr(err)
		}
	}
	p, err := c.sendRequest(c.ctx, method, params)
	if err != nil {
		report(err)
		return
	}
	if !c.spawn(func() {
		ctx, cancel := context.WithTimeout(c.ctx, ackWait)
		defer cancel()
		if _, err := p.wait(ctx); err != nil {
			report(err)
		}
	}) {
		c.requests.forget(p.id)
	}
}
