package mock

import (
	"container/list"
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
	// it, the least recently used is forgotten.
	maxSessions = 256
	// maxPending bounds the messages a session keeps for its next answer;
	// past it, more are dropped.
	maxPending = 4096
)

// headerSession carries a Streamable HTTP session's id.
const headerSession = "Mcp-Session-Id"

// HTTPHandler serves a Recording over Streamable HTTP at Path: a POST
// carries the client's messages; its answer is application/json, or
// text/event-stream when server messages go before it or the POST is a
// batch (each message an event, sent as it is made). initialize issues
// an Mcp-Session-Id that later requests must carry (an unknown one gets
// 404); the least recently used session is forgotten past maxSessions. A
// request without one and without initialize (2026-07-28) is answered
// by a Conn of its own: the first recorded match, whatever other clients
// sent. Notifications and responses get 202; the messages a notification
// brings (notifications/initialized) go before the session's next
// answer. GET gets 405: there is no standalone stream. DELETE ends the
// session.
type HTTPHandler struct {
	rec      *Recording
	mu       sync.Mutex
	sessions map[string]*list.Element // of *httpSession, in used
	used     *list.List               // sessions, most recently used first
	next     int
}

// httpSession is one Streamable HTTP session: its Conn and the messages
// waiting for its next answer.
type httpSession struct {
	id      string
	conn    *Conn
	mu      sync.Mutex
	pending [][]byte
}

// NewHTTPHandler returns a handler that serves rec.
func NewHTTPHandler(rec *Recording) *HTTPHandler {
	return &HTTPHandler{rec: rec, sessions: map[string]*list.Element{}, used: list.New()}
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
		writeJSON(w, http.StatusRequestEntityTooLarge, errorAnswer(nullID, mcp.CodeInvalidRequest, fmt.Sprintf("the body is over %d bytes, or could not be read", MaxMessage), nil))
		return
	}
	msgs, batch, derr := jsonrpc.DecodeJSON(body)
	var requests, initialize bool
	for _, m := range msgs {
		requests = requests || m.Kind() == jsonrpc.KindRequest || m.Kind() == jsonrpc.KindInvalid
		initialize = initialize || m.Method == mcp.MethodInitialize
	}
	requests = requests || len(msgs) == 0 || derr != nil // what cannot be read is answered
	s := h.session(r.Header.Get(headerSession), initialize)
	if s == nil {
		writeJSON(w, http.StatusNotFound, errorAnswer(nullID, mcp.CodeInvalidRequest, "unknown or ended session: initialize again", nil))
		return
	}
	if s.id != "" {
		w.Header().Set(headerSession, s.id)
	}
	if !requests {
		out := s.conn.Handle(body)
		s.mu.Lock()
		s.pending = append(s.pending, out[:min(len(out), maxPending-len(s.pending))]...)
		s.mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
		return
	}
	s.mu.Lock()
	pending := s.pending
	s.pending = nil
	s.mu.Unlock()
	if batch {
		streamEvents(w, s.conn, pending, body)
		return
	}
	out := append(pending, s.conn.Handle(body)...)
	if len(out) == 1 {
		writeJSON(w, http.StatusOK, out[0])
		return
	}
	writeEvents(w, out)
}

// session finds the session a POST belongs to: a new one for initialize,
// the one its Mcp-Session-Id names (nil when unknown), or a fresh one,
// kept nowhere, for a request without a session.
func (h *HTTPHandler) session(sent string, initialize bool) *httpSession {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case initialize:
		h.next++
		s := &httpSession{id: fmt.Sprintf("mock-session-%d", h.next), conn: h.rec.NewConn()}
		h.sessions[s.id] = h.used.PushFront(s)
		if h.used.Len() > maxSessions {
			last := h.used.Back()
			h.used.Remove(last)
			delete(h.sessions, last.Value.(*httpSession).id)
		}
		return s
	case sent != "":
		e := h.sessions[sent]
		if e == nil {
			return nil
		}
		h.used.MoveToFront(e)
		return e.Value.(*httpSession)
	}
	c := h.rec.NewConn()
	c.unsolicited = true // no stream carries them
	return &httpSession{conn: c}
}

// delete ends the session the request names.
func (h *HTTPHandler) delete(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(headerSession)
	h.mu.Lock()
	e, ok := h.sessions[id]
	if ok {
		h.used.Remove(e)
		delete(h.sessions, id)
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
	startEvents(w)
	for _, m := range msgs {
		if writeEvent(w, m) != nil {
			return
		}
	}
}

// streamEvents answers a batch as an event stream: first the messages
// waiting, then each answer an event as the Conn makes it, flushed.
func streamEvents(w http.ResponseWriter, conn *Conn, pending [][]byte, body []byte) {
	startEvents(w)
	for _, m := range pending {
		if writeEvent(w, m) != nil {
			return
		}
	}
	flush := http.NewResponseController(w)
	_ = conn.Each(body, func(b []byte, _ bool) error {
		if err := writeEvent(w, b); err != nil {
			return err
		}
		return flush.Flush()
	})
}

// startEvents sends the headers of an event stream.
func startEvents(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

// writeEvent writes one message as an event.
func writeEvent(w io.Writer, msg []byte) error {
	b := make([]byte, 0, len(msg)+24)
	b = append(append(append(b, "event: message\ndata: "...), msg...), "\n\n"...)
	_, err := w.Write(b)
	return err
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
