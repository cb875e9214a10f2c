package mcphttp

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Header names of Streamable HTTP.
const (
	headerSession  = mcp.HeaderSessionID
	headerVersion  = mcp.HeaderProtocolVersion
	headerMethod   = mcp.HeaderMethod
	headerName     = mcp.HeaderName
	headerLastID   = "Last-Event-ID"
	acceptBoth     = "application/json, text/event-stream"
	acceptStream   = "text/event-stream"
	contentTypeJSO = "application/json"
)

// modernMeta is what the transport reads, once, of a 2026-07-28
// request's params: the per-request protocol version and the name the
// Mcp-Name header mirrors. The Mcp-Param headers come from the engine
// (client.ParamHeadersOf).
type modernMeta struct {
	Meta struct {
		ProtocolVersion string `json:"io.modelcontextprotocol/protocolVersion"`
	} `json:"_meta"`
	Name   string `json:"name"`
	URI    string `json:"uri"`
	TaskID string `json:"taskId"`
}

// readModern reads m's params when they carry the 2026-07-28 _meta, or
// returns nil.
func readModern(m *jsonrpc.Message) *modernMeta {
	if len(m.Params) == 0 || !bytes.Contains(m.Params, []byte("protocolVersion")) {
		return nil
	}
	var mm modernMeta
	if json.Unmarshal(m.Params, &mm) != nil || mm.Meta.ProtocolVersion == "" {
		return nil
	}
	return &mm
}

// mirroredName is what Mcp-Name carries for a request of method: the
// tool's or prompt's name, the resource's URI, the task's id (the Tasks
// extension), or "" for other methods.
func (mm *modernMeta) mirroredName(method string) string {
	switch method {
	case mcp.MethodToolsCall, mcp.MethodPromptsGet:
		return mm.Name
	case mcp.MethodResourcesRead, mcp.MethodResourcesSubscribe, mcp.MethodResourcesUnsubscribe:
		return mm.URI
	case mcp.MethodTasksGet, mcp.MethodTasksUpdate, mcp.MethodTasksCancel:
		return mm.TaskID
	}
	return ""
}

// setCommon sets the headers every request carries: the user's, the
// Origin, the session id and the protocol version once known.
func (t *Transport) setCommon(h http.Header, withSession bool) {
	for k, vs := range t.cfg.Header {
		h[k] = append([]string(nil), vs...)
	}
	if t.cfg.Origin != "" {
		h.Set("Origin", t.cfg.Origin)
	}
	if t.cfg.Auth != nil && h.Get("Authorization") == "" {
		if v := t.cfg.Auth.Header(t.ctx); v != "" {
			h.Set("Authorization", v)
		}
	}
	t.mu.Lock()
	session, version := t.session, t.version
	t.mu.Unlock()
	if withSession && session != "" {
		h.Set(headerSession, session)
	}
	if withSession && version != "" {
		h.Set(headerVersion, version)
	}
}

// setMessageHeaders sets the headers of a POST carrying m; modern is what
// readModern read of it.
func (t *Transport) setMessageHeaders(h http.Header, m *jsonrpc.Message, modern *modernMeta) {
	t.setCommon(h, m.Method != mcp.MethodInitialize)
	h.Set("Content-Type", contentTypeJSO)
	h.Set("Accept", acceptBoth)
	if modern != nil {
		h.Set(headerVersion, modern.Meta.ProtocolVersion)
		h.Set(headerMethod, m.Method)
		if name := modern.mirroredName(m.Method); name != "" {
			h.Set(headerName, mcp.EncodeHeaderValue(name))
		}
	}
}
