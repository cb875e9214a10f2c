package demohttp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Media types of MCP over HTTP.
const (
	mediaJSON = "application/json"
	mediaSSE  = "text/event-stream"
)

// readMessage reads the body of r as one JSON-RPC message. On failure it
// has answered already: 413 over MaxBody, 400 with -32700 or -32600 for a
// body that is no single valid message (a batch included).
func (h *Handler) readMessage(w http.ResponseWriter, r *http.Request) (*jsonrpc.Message, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.opts.MaxBody))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		writeError(w, http.StatusRequestEntityTooLarge, nil, mcp.CodeInvalidRequest,
			fmt.Sprintf("the request body is over the limit of %d bytes", h.opts.MaxBody))
		return nil, false
	case err != nil:
		writeError(w, http.StatusBadRequest, nil, mcp.CodeParseError, "reading the request body: "+err.Error())
		return nil, false
	}
	if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '[' {
		writeError(w, http.StatusBadRequest, nil, mcp.CodeInvalidRequest, "JSON-RPC batches are not supported; send one message per POST")
		return nil, false
	}
	m, err := jsonrpc.DecodeMessage(body)
	switch {
	case err != nil && m != nil && m.ID != nil:
		writeError(w, http.StatusBadRequest, m.ID, mcp.CodeInvalidRequest, err.Error())
		return nil, false
	case err != nil:
		writeError(w, http.StatusBadRequest, nil, mcp.CodeParseError, "Parse error: "+err.Error())
		return nil, false
	}
	return m, true
}

// writeError answers with status and a JSON-RPC error response (id null
// when unknown).
func writeError(w http.ResponseWriter, status int, id *jsonrpc.ID, code int, msg string) {
	writeRPCError(w, status, id, &jsonrpc.Error{Code: code, Message: msg})
}

// writeRPCError answers with status and the error response of rerr.
func writeRPCError(w http.ResponseWriter, status int, id *jsonrpc.ID, rerr *jsonrpc.Error) {
	m := &jsonrpc.Message{JSONRPC: jsonrpc.Version, ID: id, Error: rerr}
	if id == nil {
		null := jsonrpc.ID{}
		m.ID = &null
	}
	writeMessage(w, status, m)
}

// writeMessage answers with status and m as an application/json body.
func writeMessage(w http.ResponseWriter, status int, m *jsonrpc.Message) {
	b, err := m.EncodeJSON()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", mediaJSON)
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// accepts reports whether the Accept header of r names every one of
// types, exactly or by a wildcard (*/*, text/*), with a non-zero quality.
func accepts(r *http.Request, types ...string) bool {
	offered := acceptList(r.Header.Values("Accept"))
	for _, t := range types {
		major, _, _ := strings.Cut(t, "/")
		ok := false
		for _, o := range offered {
			if o == t || o == "*/*" || o == major+"/*" {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// acceptsExactly reports whether the Accept header names media type t
// itself (seed 004: SSE only when asked for by name).
func acceptsExactly(r *http.Request, t string) bool {
	for _, o := range acceptList(r.Header.Values("Accept")) {
		if o == t {
			return true
		}
	}
	return false
}

// acceptList returns the media ranges of Accept header values, lowercase,
// without parameters, leaving out those of quality 0.
func acceptList(values []string) []string {
	var out []string
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			media, params, _ := strings.Cut(part, ";")
			media = strings.ToLower(strings.TrimSpace(media))
			if media == "" || zeroQuality(params) {
				continue
			}
			out = append(out, media)
		}
	}
	return out
}

// zeroQuality reports whether media range parameters say q=0.
func zeroQuality(params string) bool {
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(p, "=")
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return err == nil && q == 0
		}
	}
	return false
}
