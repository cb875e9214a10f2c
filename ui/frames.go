package ui

import (
	"errors"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// callKey identifies one call across channels: the connection, who sent
// the request (a server may use the same ids as the client) and the id.
type callKey struct {
	conn       string
	fromServer bool
	id         string // jsonrpc.ID.Key()
}

// sessionConn names the connection whose requests share one id space
// (capture.SessionConn).
func sessionConn(conn string) string { return capture.SessionConn(conn) }

// callOf returns the call a frame belongs to: a request, its response, or
// an execution stream or datagram that names the request in its header.
func callOf(f *capture.Frame) (callKey, bool) {
	switch f.Chan.Kind {
	case capture.Stream, capture.Datagram:
		if f.Chan.Kind == capture.Datagram && len(f.Fields) == 0 {
			return callKey{}, false // a datagram whose header did not decode
		}
		return callKey{conn: f.Conn, id: jsonrpc.IntID(int64(f.Chan.ReqID)).Key()}, true
	case capture.Control:
		m := f.Msg
		if m == nil || m.ID == nil || m.ID.IsNull() {
			return callKey{}, false
		}
		switch m.Kind() {
		case jsonrpc.KindRequest:
			return callKey{conn: sessionConn(f.Conn), fromServer: f.Dir == capture.In, id: m.ID.Key()}, true
		case jsonrpc.KindResult, jsonrpc.KindError:
			return callKey{conn: sessionConn(f.Conn), fromServer: f.Dir == capture.Out, id: m.ID.Key()}, true
		}
	}
	return callKey{}, false
}

// requestOf returns the call a frame belongs to or names, and the id of
// its request: a request, its response, an execution stream or datagram
// of it, or a progress notification, cancellation or notification of its
// subscription that names it.
func requestOf(f *capture.Frame) (callKey, jsonrpc.ID, bool) {
	if k, ok := callOf(f); ok {
		if f.Chan.Kind != capture.Control {
			return k, jsonrpc.IntID(int64(f.Chan.ReqID)), true
		}
		return k, *f.Msg.ID, true
	}
	if k, ok := notifiedCall(f); ok {
		id, _, _ := notifiedID(f)
		return k, id, true
	}
	return callKey{}, jsonrpc.ID{}, false
}

// bodyOf returns the body bytes of a frame: the ranges its framer
// annotated as body, or what follows its header fields, or all of Raw.
func bodyOf(f *capture.Frame) []byte {
	var body []byte
	bodies, hdrEnd := 0, 0
	for _, fd := range f.Fields {
		lo, hi, ok := clip(fd.Offset, fd.Len, len(f.Raw))
		if !ok {
			continue
		}
		switch fd.Kind {
		case proto.FieldBody:
			bodies++
			if bodies == 1 {
				body = f.Raw[lo:hi]
			} else {
				body = append(append([]byte(nil), body...), f.Raw[lo:hi]...)
			}
		case proto.FieldHeader:
			hdrEnd = max(hdrEnd, hi)
		}
	}
	if bodies > 0 {
		return body
	}
	return f.Raw[min(hdrEnd, len(f.Raw)):]
}

// clip clips [off, off+n) to [0, size).
func clip(off, n, size int) (lo, hi int, ok bool) {
	if off < 0 || n <= 0 || off >= size {
		return 0, 0, false
	}
	return off, off + min(n, size-off), true
}

// errNoBytes says a frame's bytes were dropped for the store's budget.
var errNoBytes = errors.New("the bytes of this frame were dropped to keep the capture within its memory budget")

// messageJSON returns the JSON text of a control frame's message: its JSON
// body, its CBOR body transcoded, or, when the bytes were dropped, the
// light message the store kept.
func messageJSON(f *capture.Frame) ([]byte, error) {
	body := bodyOf(f)
	if len(body) > 0 {
		switch f.Enc {
		case proto.EncJSON:
			return body, nil
		case proto.EncCBOR:
			return jsonrpc.CBORToJSON(body)
		}
	}
	if f.Msg != nil {
		m := *f.Msg // EncodeJSON may set JSONRPC; frames are shared
		return m.EncodeJSON()
	}
	if len(f.Raw) == 0 && f.Size > 0 {
		return nil, errNoBytes
	}
	return body, nil
}
