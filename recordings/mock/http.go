package mock

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Path is where the mock serves MCP over Streamable HTTP and WebSocket.
const Path = "/mcp"

// Bounds of the HTTP and WebSocket bindings.
const (
	// MaxMessage bounds one message (or batch) from a client.
	MaxMessage = 16 << 20
	// maxSessions bounds the Streamable HTTP sessions kept at once; past
	// it, the oldest is forgotten.
	maxSessions = 256
	// maxPending bounds the messages a session keeps for its next answer;
	// past it, more are dropped.
	maxPending = 4096
)

// headerSession carries a Streamable HTTP session's id.
const headerSession = "Mcp-Session-Id"

// HTTPHandler serves a Recording over Streamable HTTP at Path: a POST
// carries the client's messages; its answer is application/json, or
// text/event-stream when server messages go before it. initialize issues
// an Mcp-Session-Id that later requests must carry (an unknown one gets
// 404); a request without one and without initialize (2026-07-28) is
// answered by one session shared by every such request. Notifications
// and responses get 202; the messages a notification brings
// (notifications/initialized) go before the session's next answer. GET
// gets 405: there is no standalone stream. DELETE ends the session.
type HTTPHandler struct {
	rec       *Recording
	mu        sync.Mutex
	sessions  map[string]*httpSession
	order     []string // session ids, oldest first
	next      int
	stateless *httpSession
}

// httpSession is one Streamable HTTP session: its Conn and the messages
// waiting for its next answer.
type httpSession struct {
	conn    *Conn
	mu      sync.Mutex
	pending [][]byte
}

// NewHTTPHandler returns a handler that serves rec.
func NewHTTPHandler(rec *Recording) *HTTPHandler {
	return &HTTPHandler{rec: rec, sessions: map[string]*httpSession{}, stateless: &httpSession{conn: rec.NewConn()}}
}

// ServeHTTP serves one HTTP request.
func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != Path {
		http.NotFound(w, r)
		return
	}
	if !loopbackOrigin(r.Header.Get("Origin")) {
		http.Error(w, "Origin not allowed: the mock accepts requests from loopback origins only", http.StatusForbidden)
		return
	}
	switch r.Method {
	case http.MethodPost:
		h.post(w, r)
	case http.MethodDelete:
		h.delete(w, r)
	default:
		w.Header().Set("Allow", "POST, DELETE")
		http.Error(w, "the mock has no standalone stream: POST messages, DELETE a session", http.StatusMethodNotAllowed)
	}
}

// post answers the messages of one POST.
func (h *HTTPHandler) post(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxMessage))
	if err != nil {
		writeJSON(w, http.StatusRequestEntityTooLarge, errorAnswer(jsonrpc.ID{}, mcp.CodeInvalidRequest, fmt.Sprintf("the body is over %d bytes, or could not be read", MaxMessage), nil))
		return
	}
	msgs, _, _ := jsonrpc.DecodeJSON(body)
	var requests, initialize bool
	for _, m := range msgs {
		requests = requests || m.Kind() == jsonrpc.KindRequest || m.Kind() == jsonrpc.KindInvalid
		initialize = initialize || m.Method == mcp.MethodInitialize
	}
	requests = requests || len(msgs) == 0
	s, id := h.session(r.Header.Get(headerSession), initialize)
	if s == nil {
		writeJSON(w, http.StatusNotFound, errorAnswer(jsonrpc.ID{}, mcp.CodeInvalidRequest, "unknown or ended session: initialize again", nil))
		return
	}
	if id != "" {
		w.Header().Set(headerSession, id)
	}
	out := s.conn.Handle(body)
	s.mu.Lock()
	if !requests {
		s.pending = append(s.pending, out[:min(len(out), maxPending-len(s.pending))]...)
		s.mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
		return
	}
	out = append(s.pending, out...)
	s.pending = nil
	s.mu.Unlock()
	if len(out) == 1 {
		writeJSON(w, http.StatusOK, out[0])
		return
	}
	writeEvents(w, out)
}

// session finds the session a POST belongs to: a new one for initialize,
// the one its Mcp-Session-Id names (nil when unknown), or the shared one
// of requests without a session. id is the session id to send back.
func (h *HTTPHandler) session(sent string, initialize bool) (s *httpSession, id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case initialize:
		h.next++
		id = fmt.Sprintf("mock-session-%d", h.next)
		s = &httpSession{conn: h.rec.NewConn()}
		h.sessions[id] = s
		h.order = append(h.order, id)
		if len(h.order) > maxSessions {
			delete(h.sessions, h.order[0])
			h.order = h.order[1:]
		}
		return s, id
	case sent != "":
		return h.sessions[sent], sent
	}
	return h.stateless, ""
}

// delete ends the session the request names.
func (h *HTTPHandler) delete(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(headerSession)
	h.mu.Lock()
	_, ok := h.sessions[id]
	delete(h.sessions, id)
	for i, o := range h.order {
		if o == id {
			h.order = append(h.order[:i], h.order[i+1:]...)
			break
		}
	}
	h.mu.Unlock()
	if !ok {
		http.Error(w, "unknown session", http.StatusNotFound)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// writeJSON writes one JSON-RPC message as the response body.
func writeJSON(w http.ResponseWriter, status int, msg []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(msg)
}

// writeEvents writes messages as an event stream, one event each.
func writeEvents(w http.ResponseWriter, msgs [][]byte) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	var b bytes.Buffer
	for _, m := range msgs {
		b.WriteString("event: message\ndata: ")
		b.Write(m)
		b.WriteString("\n\n")
	}
	_, _ = w.Write(b.Bytes())
}

// loopbackOrigin accepts a request without Origin, or from a page on a
// loopback host: another site's page cannot drive the mock.
func loopbackOrigin(origin string) bool {
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
