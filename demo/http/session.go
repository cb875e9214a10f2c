package demohttp

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// keepFinished is how many answered POST streams a session keeps, for a
// client that resumes one after its answer was written.
const keepFinished = 16

// Errors of opening a call's stream.
var (
	errInFlight    = errors.New("a request with this id is in flight on this session already")
	errTooMany     = errors.New("too many unanswered requests on this session")
	errSessionGone = errors.New("the session has ended")
)

// session is one Streamable HTTP session (2025-03-26 … 2025-11-25): the
// demo connection, the SSE stream of each POST that carries a request, and
// the standalone GET stream (number 0) for messages of no call.
type session struct {
	h       *Handler
	id      string
	version string // negotiated by initialize
	conn    *demo.Conn

	mu         sync.Mutex
	streams    map[uint64]*stream // by number: resumable streams
	calls      map[string]*stream // streams of requests not answered yet, by request id (pruned as they are)
	finished   []uint64           // answered POST streams still kept, oldest first
	standalone *stream
	num        uint64
	closed     bool
	expired    bool // misbehave expire_session: gone from the registry, ends after this request
	busy       int  // requests being served
	idle       *time.Timer
}

// newSession builds a session and its demo connection.
func (h *Handler) newSession(version string) *session {
	s := &session{h: h, id: newSessionID(), version: version, streams: make(map[uint64]*stream), calls: make(map[string]*stream)}
	s.standalone = newStream(h.streamConfig(0, formatSSE, ""))
	s.streams[0] = s.standalone
	s.conn = h.core.NewConn(&outbound{h: h, r: s})
	s.idle = time.AfterFunc(h.opts.SessionIdle, s.idleOut)
	return s
}

// streamConfig is the config of resumable MCP stream num, the answer to
// request call (a key; "" for the GET stream).
func (h *Handler) streamConfig(num uint64, f format, call string) streamConfig {
	return streamConfig{num: num, ids: true, name: "message", format: f, call: call, huge: mcpHuge,
		replayEvents: h.opts.ReplayEvents, replayBytes: h.opts.ReplayBytes, backlog: h.opts.Backlog}
}

// callStream returns the stream of an unanswered request (router).
func (s *session) callStream(id jsonrpc.ID) (*stream, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[id.Key()], true
}

// otherStream returns the GET stream (router).
func (s *session) otherStream() *stream { return s.standalone }

// openCall opens the stream of a POST's request.
func (s *session) openCall(id jsonrpc.ID) (*stream, error) {
	f := formatSSE
	if s.h.opts.JSONResponse {
		f = formatJSON
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	maps.DeleteFunc(s.calls, func(_ string, st *stream) bool { return st.isAnswered() })
	switch {
	case s.closed:
		return nil, errSessionGone
	case s.calls[id.Key()] != nil:
		return nil, errInFlight
	case len(s.calls) >= s.h.opts.MaxStreams:
		return nil, fmt.Errorf("%w (at most %d)", errTooMany, s.h.opts.MaxStreams)
	}
	s.num++
	st := newStream(s.h.streamConfig(s.num, f, id.Key()))
	s.streams[s.num] = st
	s.calls[id.Key()] = st
	return st, nil
}

// stream returns stream num, or nil.
func (s *session) stream(num uint64) *stream {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.streams[num]
}

// settle updates the bookkeeping after a connection stopped writing st:
// an answered stream leaves the calls (kept a while for a late resume), a
// closed one goes.
func (s *session) settle(st *stream) {
	finished, closed := st.isFinished(), st.isClosed()
	if !finished && !closed || st == s.standalone {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if key := st.cfg.call; s.calls[key] == st {
		delete(s.calls, key)
	}
	if closed && !finished {
		delete(s.streams, st.cfg.num)
		return
	}
	if slices.Contains(s.finished, st.cfg.num) {
		return // a replay of an answered stream
	}
	s.finished = append(s.finished, st.cfg.num)
	for len(s.finished) > keepFinished {
		delete(s.streams, s.finished[0])
		s.finished = s.finished[1:]
	}
}

// begin marks a request being served: the session does not idle out.
func (s *session) begin() {
	s.mu.Lock()
	s.busy++
	s.idle.Stop()
	s.mu.Unlock()
}

// done ends what begin started; the last request restarts the idle timer,
// or ends a session that expired.
func (s *session) done() {
	s.mu.Lock()
	s.busy--
	last := s.busy == 0
	if last && !s.closed && !s.expired {
		s.idle.Reset(s.h.opts.SessionIdle)
	}
	expired := s.expired
	s.mu.Unlock()
	if last && expired {
		s.end()
	}
}

// idleOut ends a session nobody used for SessionIdle.
func (s *session) idleOut() {
	s.mu.Lock()
	busy := s.busy > 0
	s.mu.Unlock()
	if !busy && s.h.sessions.remove(s.id, s) {
		s.end()
	}
}

// expire is misbehave expire_session: the session leaves the registry now
// (later requests get 404), its GET stream ends, and the rest ends when the
// requests being served are done.
func (s *session) expire(jsonrpc.ID) error {
	s.h.sessions.remove(s.id, s)
	s.mu.Lock()
	s.expired = true
	s.mu.Unlock()
	s.standalone.close()
	return nil
}

// end closes every stream and the demo connection (cancelling its calls).
func (s *session) end() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.idle.Stop()
	all := slices.Collect(maps.Values(s.streams))
	s.mu.Unlock()
	for _, st := range all {
		st.close()
	}
	s.conn.Close()
}

// checkVersion checks the MCP-Protocol-Version header of a request after
// initialize: absent, or the negotiated version.
func (s *session) checkVersion(r *http.Request) bool {
	v := r.Header.Get("MCP-Protocol-Version")
	return v == "" || v == s.version
}
