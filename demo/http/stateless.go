package demohttp

import (
	"encoding/json"
	"maps"
	"net/http"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// noServerRequests is why a stateless request cannot carry a request of
// the server's own.
const noServerRequests = "a 2026-07-28 request has no channel for server→client requests " +
	"(2026-07-28 asks through MRTR, which the demo does not offer): use a 2025-11-25 session"

// supportedVersions are the versions /mcp serves, for -32022.
func (h *Handler) supportedVersions() []string {
	if h.opts.Eras == ModernOnly {
		return []string{mcp.Modern}
	}
	return append([]string{mcp.Modern}, mcp.LegacyVersions...)
}

// postStateless serves a 2026-07-28 request on its own: headers checked
// against the body, route's Mcp-Param headers too (400 with -32020 or
// -32022), server/discover answered,
// anything else served by a demo connection of its own that lives as long
// as the request. The answer is one JSON body when nothing comes before
// it, else an SSE stream without ids; the client closing that stream
// cancels the request. -32601 comes with 404.
func (h *Handler) postStateless(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
	rerr := checkModern(r.Header, m, h.supportedVersions())
	if rerr == nil {
		rerr = checkParamHeaders(r.Header, m)
	}
	if rerr != nil {
		writeRPCError(w, http.StatusBadRequest, m.ID, rerr)
		return
	}
	switch m.Kind() {
	case jsonrpc.KindNotification:
		w.WriteHeader(http.StatusAccepted)
		return
	case jsonrpc.KindRequest:
	default:
		writeError(w, http.StatusBadRequest, m.ID, mcp.CodeInvalidRequest, "a 2026-07-28 client sends no responses: the server sends it no requests")
		return
	}
	switch m.Method {
	case mcp.MethodDiscover:
		res := h.core.Discover()
		res.SupportedVersions = h.supportedVersions()
		ttl := int64(demo.DiscoverTTLMs)
		res.TTLMs, res.CacheScope = &ttl, mcp.CacheScopePublic
		// The tasks extension is this transport's own (the stateless era):
		// added to a copy of what the core declares, skills among it.
		ext := maps.Clone(res.Capabilities.Extensions)
		if ext == nil {
			ext = map[string]json.RawMessage{}
		}
		ext[mcp.ExtensionTasks] = mcp.EmptyObject
		res.Capabilities.Extensions = ext
		answer, err := jsonrpc.NewResult(*m.ID, res)
		if err != nil {
			writeError(w, http.StatusInternalServerError, m.ID, mcp.CodeInternalError, err.Error())
			return
		}
		writeMessage(w, http.StatusOK, answer)
		return
	case mcp.MethodInitialize:
		writeRPCError(w, http.StatusNotFound, m.ID, &jsonrpc.Error{Code: mcp.CodeMethodNotFound, Message: "initialize is not a 2026-07-28 method: use server/discover"})
		return
	}
	if m.Method == mcp.MethodSubscriptionsListen {
		h.serveListen(w, r, m)
		return
	}
	if h.serveTask(w, m) {
		return
	}
	f := formatAuto
	if h.opts.JSONResponse {
		f = formatJSON
	}
	st := newStream(streamConfig{name: "message", format: f, call: m.ID.Key(), huge: mcpHuge, backlog: h.opts.Backlog})
	conn := h.core.NewConn(&outbound{h: h, r: requestRouter{id: *m.ID, st: st}, noRequests: noServerRequests, status: statelessStatus,
		added: statelessTools, modern: true})
	defer conn.Close()
	gen, _ := st.attach(nil)
	conn.Handle(m)
	h.writeStream(r.Context(), w, st, gen, response{})
}

// statelessStatus is 404 for -32601, 200 for any other answer.
func statelessStatus(m *jsonrpc.Message) int {
	if m.Error != nil && m.Error.Code == mcp.CodeMethodNotFound {
		return http.StatusNotFound
	}
	return http.StatusOK
}

// requestRouter routes the messages of a connection that serves one
// request: its own stream, nothing else.
type requestRouter struct {
	id jsonrpc.ID
	st *stream
}

// callStream returns the request's stream (router).
func (r requestRouter) callStream(id jsonrpc.ID) (*stream, bool) {
	if id.Key() != r.id.Key() {
		return nil, false
	}
	return r.st, true
}

// otherStream is none: a request-scoped stream carries only its request's
// messages (router).
func (requestRouter) otherStream() *stream { return nil }
