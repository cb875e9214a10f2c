package demohttp

import (
	"net/http"
	"sync"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// legacySession is one session of the HTTP+SSE transport (2024-11-05): the
// GET stream that carries every message of the server, and the demo
// connection the client's POSTs to PathMessage feed.
type legacySession struct {
	h    *Handler
	id   string
	st   *stream
	conn *demo.Conn
	once sync.Once

	mu          sync.Mutex
	expireAfter string // request id (key) whose answer ends the stream (misbehave expire_session)
}

// callStream is the session's one stream; the answer to a request that
// expired the session ends it (router).
func (s *legacySession) callStream(id jsonrpc.ID) (*stream, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st, s.expireAfter != "" && id.Key() == s.expireAfter
}

// otherStream is the session's one stream (router).
func (s *legacySession) otherStream() *stream { return s.st }

// expire is misbehave expire_session: POSTs get 404 from now on, and the
// stream ends after the answer to request id.
func (s *legacySession) expire(id jsonrpc.ID) error {
	s.h.sessions.remove(s.id, s)
	s.mu.Lock()
	s.expireAfter = id.Key()
	s.mu.Unlock()
	return nil
}

// end closes the stream and the demo connection.
func (s *legacySession) end() {
	s.once.Do(func() {
		s.st.close()
		s.conn.Close()
	})
}

// serveLegacyStream serves GET PathSSE and PathSSEAbsolute: a new session
// whose stream opens with the endpoint event (a relative URL, or an
// absolute one on PathSSEAbsolute) and then carries the server's messages
// as message events, until the client goes.
func (h *Handler) serveLegacyStream(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method != http.MethodGet:
		methodNotAllowed(w, "GET", "the HTTP+SSE stream opens with GET; POST to "+PathMessage)
		return
	case r.Header.Get("Accept") != "" && !accepts(r, mediaSSE):
		writeError(w, http.StatusNotAcceptable, nil, mcp.CodeInvalidRequest, "the Accept header must allow text/event-stream")
		return
	}
	s := &legacySession{h: h, id: newSessionID()}
	s.st = newStream(streamConfig{name: "message", format: formatSSE, huge: mcpHuge, backlog: h.opts.Backlog})
	s.conn = h.core.NewConn(&outbound{h: h, r: s})
	if !h.sessions.add(s.id, s) {
		s.end()
		writeError(w, http.StatusServiceUnavailable, nil, mcp.CodeInternalError, "the server holds too many sessions")
		return
	}
	defer func() {
		h.sessions.remove(s.id, s)
		s.end()
	}()
	endpoint := PathMessage + "?sessionId=" + s.id
	if r.URL.Path == PathSSEAbsolute {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		endpoint = scheme + "://" + r.Host + endpoint
	}
	_ = s.st.push(item{name: "endpoint", data: []byte(endpoint)})
	gen, _ := s.st.attach(nil)
	h.writeStream(r.Context(), w, s.st, gen, response{commitNow: true})
}

// serveLegacyMessage serves POST PathMessage?sessionId=ID: the message goes
// to the session, 202; its answer comes on the session's stream.
func (h *Handler) serveLegacyMessage(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		methodNotAllowed(w, "POST", "messages are POSTed to "+PathMessage)
		return
	}
	id := r.URL.Query().Get("sessionId")
	if id == "" {
		writeError(w, http.StatusBadRequest, nil, mcp.CodeInvalidRequest, "sessionId is missing: GET "+PathSSE+" first")
		return
	}
	s, _ := h.sessions.get(id).(*legacySession)
	if s == nil {
		writeError(w, http.StatusNotFound, nil, mcp.CodeInvalidRequest, "no session has this sessionId (its stream closed, or it expired)")
		return
	}
	m, ok := h.readMessage(w, r)
	if !ok {
		return
	}
	s.conn.Handle(m)
	w.WriteHeader(http.StatusAccepted)
}
