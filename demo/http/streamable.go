package demohttp

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Header names of Streamable HTTP.
const (
	headerSession     = "Mcp-Session-Id"
	headerVersion     = "MCP-Protocol-Version"
	headerLastEventID = "Last-Event-ID"
)

// serveMCP serves PathMCP: POST, GET and DELETE; 405 for the rest.
func (h *Handler) serveMCP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		h.postMCP(w, r)
	case http.MethodGet:
		h.getMCP(w, r)
	case http.MethodDelete:
		h.deleteMCP(w, r)
	default:
		methodNotAllowed(w, "GET, POST, DELETE", r.Method+" is not served at "+PathMCP)
	}
}

// methodNotAllowed answers 405 with the Allow header and an error body.
func methodNotAllowed(w http.ResponseWriter, allow, why string) {
	w.Header().Set("Allow", allow)
	writeError(w, http.StatusMethodNotAllowed, nil, mcp.CodeInvalidRequest, why)
}

// postMCP serves one JSON-RPC message: initialize opens a session, a
// message with Mcp-Session-Id is served in its session, a 2026-07-28
// message without one is served stateless (see Eras).
func (h *Handler) postMCP(w http.ResponseWriter, r *http.Request) {
	m, ok := h.readMessage(w, r)
	if !ok {
		return
	}
	if !accepts(r, mediaJSON, mediaSSE) {
		writeError(w, http.StatusNotAcceptable, m.ID, mcp.CodeInvalidRequest, "the Accept header must list both application/json and text/event-stream")
		return
	}
	sid := r.Header.Get(headerSession)
	switch {
	case h.opts.Eras == ModernOnly, h.opts.Eras == BothEras && mcp.IsModernVersion(r.Header.Get(headerVersion)):
		h.postStateless(w, r, m) // a 2026-07-28 request: Mcp-Session-Id is ignored
	case m.Method == mcp.MethodInitialize && m.Kind() == jsonrpc.KindRequest:
		if sid != "" {
			writeError(w, http.StatusBadRequest, m.ID, mcp.CodeInvalidRequest, "initialize opens a new session: send it without "+headerSession)
			return
		}
		h.initialize(w, r, m)
	case sid == "" && h.opts.Eras == BothEras && isModern(r, m):
		h.postStateless(w, r, m)
	case sid == "":
		writeError(w, http.StatusBadRequest, m.ID, mcp.CodeInvalidRequest, headerSession+" is missing: open a session with initialize first")
	default:
		if s := h.session(w, r, m.ID); s != nil {
			s.post(w, r, m)
		}
	}
}

// session returns the session Mcp-Session-Id names, after checking the
// request's MCP-Protocol-Version; else it has answered (404, 400).
func (h *Handler) session(w http.ResponseWriter, r *http.Request, id *jsonrpc.ID) *session {
	s, _ := h.sessions.get(r.Header.Get(headerSession)).(*session)
	switch {
	case s == nil:
		writeError(w, http.StatusNotFound, id, mcp.CodeInvalidRequest, "no session has this "+headerSession+" (it expired or was deleted): initialize again")
	case !s.checkVersion(r):
		writeError(w, http.StatusBadRequest, id, mcp.CodeInvalidRequest,
			fmt.Sprintf("%s %q is not this session's protocol version %s", headerVersion, r.Header.Get(headerVersion), s.version))
		return nil
	}
	return s
}

// initialize answers initialize and opens a session: its id goes out in
// Mcp-Session-Id with the answer.
func (h *Handler) initialize(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
	res, rerr := h.core.Initialize(m.Params)
	if rerr != nil {
		writeRPCError(w, http.StatusBadRequest, m.ID, rerr)
		return
	}
	answer, err := jsonrpc.NewResult(*m.ID, res)
	if err != nil {
		writeError(w, http.StatusInternalServerError, m.ID, mcp.CodeInternalError, err.Error())
		return
	}
	data, err := answer.EncodeJSON()
	if err != nil {
		writeError(w, http.StatusInternalServerError, m.ID, mcp.CodeInternalError, err.Error())
		return
	}
	s := h.newSession(res.ProtocolVersion)
	if !h.sessions.add(s.id, s) {
		s.end()
		writeError(w, http.StatusServiceUnavailable, m.ID, mcp.CodeInternalError, fmt.Sprintf("the server holds %d sessions already", h.opts.MaxSessions))
		return
	}
	s.begin()
	defer s.done()
	st, err := s.openCall(*m.ID)
	if err != nil {
		writeError(w, http.StatusServiceUnavailable, m.ID, mcp.CodeInternalError, err.Error())
		return
	}
	gen, _ := st.attach(nil)
	_ = st.push(item{data: data, final: true})
	h.writeStream(r.Context(), w, st, gen, response{header: func(hd http.Header) { hd.Set(headerSession, s.id) }})
	s.settle(st)
}

// post serves a message of the session: a request's answer (and the
// call's messages) on an SSE stream of its own, 202 for the rest.
func (s *session) post(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
	s.begin()
	defer s.done()
	if m.Kind() != jsonrpc.KindRequest {
		s.conn.Handle(m)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	st, err := s.openCall(*m.ID)
	if err != nil {
		refuseStream(w, m.ID, fmt.Errorf("request id %s: %w", m.ID, err))
		return
	}
	gen, _ := st.attach(nil)
	s.conn.Handle(m)
	s.h.writeStream(r.Context(), w, st, gen, response{})
	s.settle(st)
}

// refuseStream answers a request whose stream cannot be had: 409 when
// another connection writes it, 429 over MaxStreams, 404 when the session
// ended, 400 for the rest (an id in flight, a Last-Event-ID too old).
func refuseStream(w http.ResponseWriter, id *jsonrpc.ID, err error) {
	status, code := http.StatusBadRequest, mcp.CodeInvalidRequest
	switch {
	case errors.Is(err, errBusy):
		status = http.StatusConflict
	case errors.Is(err, errTooMany):
		status, code = http.StatusTooManyRequests, mcp.CodeInternalError
	case errors.Is(err, errStreamEnded), errors.Is(err, errSessionGone):
		status = http.StatusNotFound
	}
	writeError(w, status, id, code, err.Error())
}

// getMCP opens the session's standalone stream, or with Last-Event-ID
// resumes the stream that event belongs to.
func (h *Handler) getMCP(w http.ResponseWriter, r *http.Request) {
	if !accepts(r, mediaSSE) && h.opts.Eras != ModernOnly {
		writeError(w, http.StatusNotAcceptable, nil, mcp.CodeInvalidRequest, "the Accept header must list text/event-stream")
		return
	}
	s := h.sessionOf(w, r, "the GET stream", func() {
		methodNotAllowed(w, "POST, DELETE", "the GET stream belongs to a session: send "+headerSession)
	})
	if s == nil {
		return
	}
	s.begin()
	defer s.done()
	st, resume := s.standalone, (*uint64)(nil)
	if last := r.Header.Get(headerLastEventID); last != "" {
		num, seq, ok := parseEventID(last)
		if st = s.stream(num); !ok || st == nil {
			writeError(w, http.StatusBadRequest, nil, mcp.CodeInvalidRequest, fmt.Sprintf("%s %q names no stream of this session", headerLastEventID, last))
			return
		}
		resume = &seq
	}
	gen, err := st.attach(resume)
	if err != nil {
		what := "the GET stream"
		if resume != nil {
			what = fmt.Sprintf("%s %q", headerLastEventID, r.Header.Get(headerLastEventID))
		}
		refuseStream(w, nil, fmt.Errorf("%s: %w", what, err))
		return
	}
	h.writeStream(r.Context(), w, st, gen, response{commitNow: true})
	s.settle(st)
}

// deleteMCP ends the session: 204, and 404 for it from then on.
func (h *Handler) deleteMCP(w http.ResponseWriter, r *http.Request) {
	s := h.sessionOf(w, r, "DELETE", func() {
		writeError(w, http.StatusBadRequest, nil, mcp.CodeInvalidRequest, headerSession+" is missing")
	})
	if s == nil {
		return
	}
	if h.sessions.remove(s.id, s) {
		s.end()
	}
	w.WriteHeader(http.StatusNoContent)
}

// sessionOf returns the session of a GET or DELETE, or answers: 405 when
// /mcp serves 2026-07-28 only or the request names 2026-07-28 in
// MCP-Protocol-Version (what names the request), noSession's
// answer without Mcp-Session-Id, else as session does.
func (h *Handler) sessionOf(w http.ResponseWriter, r *http.Request, what string, noSession func()) *session {
	switch {
	case h.opts.Eras == ModernOnly, h.opts.Eras == BothEras && mcp.IsModernVersion(r.Header.Get(headerVersion)):
		methodNotAllowed(w, "POST", "2026-07-28 has no sessions: "+what+" is not served")
		return nil
	case r.Header.Get(headerSession) == "":
		noSession()
		return nil
	}
	return h.session(w, r, nil)
}
