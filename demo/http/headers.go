package demohttp

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Request metadata headers of 2026-07-28.
const (
	headerMethod = mcp.HeaderMethod
	headerName   = mcp.HeaderName
)

// codeHeaderMismatch is 2026-07-28's HeaderMismatch error (proto names
// the codes, not yet as constants).
const codeHeaderMismatch = -32020

// codeUnsupportedVersion is 2026-07-28's UnsupportedProtocolVersionError.
const codeUnsupportedVersion = -32022

// requestMeta reads the protocol version a request's params._meta names.
func requestMeta(m *jsonrpc.Message) (version string, present bool) {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if len(m.Params) == 0 || json.Unmarshal(m.Params, &p) != nil {
		return "", false
	}
	raw, ok := p.Meta[mcp.MetaProtocolVersion]
	if !ok || json.Unmarshal(raw, &version) != nil {
		return "", false
	}
	return version, true
}

// isModern reports whether a request without a session speaks 2026-07-28:
// by its MCP-Protocol-Version header, its _meta, or server/discover.
func isModern(r *http.Request, m *jsonrpc.Message) bool {
	if mcp.IsModernVersion(r.Header.Get(headerVersion)) || m.Method == mcp.MethodDiscover {
		return true
	}
	v, _ := requestMeta(m)
	return mcp.IsModernVersion(v)
}

// checkModern validates the metadata headers of a 2026-07-28 request
// against its body: MCP-Protocol-Version (a supported version, the one in
// _meta), Mcp-Method, and Mcp-Name for tools/call, prompts/get and
// resources/read (Base64 sentinel values decoded). The error is -32020 or
// -32022, always with status 400.
func checkModern(hd http.Header, m *jsonrpc.Message, supported []string) *jsonrpc.Error {
	mismatch := func(format string, a ...any) *jsonrpc.Error {
		return &jsonrpc.Error{Code: codeHeaderMismatch, Message: "Header mismatch: " + fmt.Sprintf(format, a...)}
	}
	v := hd.Get(headerVersion)
	switch {
	case v == "":
		return mismatch("the %s header is missing", headerVersion)
	case !mcp.IsModernVersion(v):
		data, _ := json.Marshal(mcp.UnsupportedVersionData{Supported: supported, Requested: v})
		return &jsonrpc.Error{Code: codeUnsupportedVersion, Message: fmt.Sprintf("Unsupported protocol version %q over stateless HTTP", v), Data: data}
	}
	if m.Kind() != jsonrpc.KindRequest {
		return nil
	}
	if body, ok := requestMeta(m); !ok || body != v {
		return mismatch("%s header value %q does not match the body's _meta %s %q", headerVersion, v, mcp.MetaProtocolVersion, body)
	}
	if got := hd.Get(headerMethod); got != m.Method {
		return mismatch("%s header value %q does not match body value %q", headerMethod, got, m.Method)
	}
	want, named := nameOf(m)
	if !named {
		return nil
	}
	raw := hd.Get(headerName)
	got, err := mcp.DecodeHeaderValue(raw)
	switch {
	case raw == "":
		return mismatch("the %s header is missing", headerName)
	case err != nil:
		return mismatch("%s header value %q: %v", headerName, raw, err)
	case got != want:
		return mismatch("%s header value %q does not match body value %q", headerName, got, want)
	}
	return nil
}

// nameOf returns what Mcp-Name mirrors: params.name of tools/call and
// prompts/get, params.uri of resources/read, params.taskId of the Tasks
// extension's tasks/get, tasks/update and tasks/cancel.
func nameOf(m *jsonrpc.Message) (string, bool) {
	var p struct {
		Name   string `json:"name"`
		URI    string `json:"uri"`
		TaskID string `json:"taskId"`
	}
	_ = json.Unmarshal(m.Params, &p)
	switch m.Method {
	case mcp.MethodToolsCall, mcp.MethodPromptsGet:
		return p.Name, true
	case mcp.MethodResourcesRead:
		return p.URI, true
	case mcp.MethodTasksGet, mcp.MethodTasksUpdate, mcp.MethodTasksCancel:
		return p.TaskID, true
	}
	return "", false
}
