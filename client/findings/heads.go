package findings

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// head is what a detector keeps of an HTTP exchange's request head until
// its body and its answer come: the headers that mirror the body, where
// they lie, and the status it was answered with.
type head struct {
	seq     uint64
	end     int                    // offset of the empty line ending the head
	headers map[string]proto.Field // Mcp-Method, Mcp-Name, MCP-Protocol-Version, Mcp-Session-Id
	checked bool                   // the body was checked against it
	status  int                    // the status of the answer, 0 until it came
}

// mirrored are the request headers a head keeps, canonical.
var mirrored = []string{mcp.HeaderMethod, mcp.HeaderName, mcp.HeaderProtocolVersion, mcp.HeaderSessionID}

// wsTooBig starts the WebSocket transport's note of the close it sends
// when the server's message is over --max-frame-size.
const wsTooBig = "close 1009 (message too big)"

// noteHead reads an HTTP head: a request's is kept for its body, a
// response's status is kept for its answer.
func (d *Detector) noteHead(s *session, r *report) {
	f := r.f
	if fd, ok := field(f, "note"); ok {
		// A line of mcpscope's own, no bytes on the wire: the WebSocket
		// transport's note of the close it sent says it refused a message
		// over the limit.
		if f.Dir == capture.Out && strings.HasPrefix(fd.Value, wsTooBig) {
			r.add(CodeFrameOverLimit, "a WebSocket message over the frame limit (--max-frame-size); mcpscope closed the WebSocket with 1009", 0, 0, "")
		}
		return
	}
	s.http = true
	if m, ok := field(f, "method"); ok && f.Dir == capture.Out {
		if m.Value != http.MethodPost {
			return // a GET stream, a WebSocket's upgrade: no body mirrored
		}
		h := &head{seq: r.seq, headers: map[string]proto.Field{}}
		for _, fd := range f.Fields {
			name := textproto.CanonicalMIMEHeaderKey(fd.Name)
			for _, want := range mirrored {
				if name == textproto.CanonicalMIMEHeaderKey(want) {
					h.headers[want] = fd
				}
			}
			if fd.Name == "end of head" {
				h.end = fd.Offset
			}
		}
		d.heads.put(f.Conn, h)
		return
	}
	h, held := d.heads.get(f.Conn)
	if !held || f.Dir != capture.In {
		return
	}
	if fd, ok := field(f, "status"); ok {
		code, _, _ := strings.Cut(fd.Value, " ")
		h.status, _ = strconv.Atoi(code)
		answerType(r, h)
		return
	}
	// A body captured beside the heads: one the transport did not take
	// for a JSON-RPC answer (an error refusing the request).
	body, _ := bodyOf(f)
	var e struct {
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error != nil {
		unknownSession(r, h, e.Error.Message)
	}
}

// answerType reports a POST answered with a success other than 202 whose
// Content-Type is neither application/json nor text/event-stream: its
// body cannot be the JSON-RPC answer the spec wants.
func answerType(r *report, h *head) {
	if h.status < 200 || h.status > 299 || h.status == http.StatusAccepted || h.status == http.StatusNoContent {
		return
	}
	for _, fd := range r.f.Fields {
		if fd.Kind != proto.FieldHeader || textproto.CanonicalMIMEHeaderKey(fd.Name) != "Content-Type" {
			continue
		}
		media, _, err := mime.ParseMediaType(fd.Value)
		if err == nil && (media == "application/json" || media == "text/event-stream") {
			return
		}
		r.add(CodeBodyNotJSONRPC, fmt.Sprintf("a POST was answered %d with Content-Type %s, neither application/json nor text/event-stream", h.status, quote(fd.Value)), fd.Offset, fd.Len, "")
		return
	}
}

// checkHeaders checks the message of an HTTP body against the head that
// carried it: a 2026-07-28 request's Mcp-Method, Mcp-Name and
// MCP-Protocol-Version against its method, name and _meta; an error
// answered with 400 to a request naming a session that mcpscope
// suspects it did not know.
func (d *Detector) checkHeaders(s *session, r *report, m *jsonrpc.Message) {
	h, ok := d.heads.get(r.f.Conn)
	if !ok {
		return
	}
	if r.f.Dir == capture.In {
		if m.Kind() == jsonrpc.KindError {
			unknownSession(r, h, m.Error.Message)
		}
		return
	}
	if h.checked || m.Kind() != jsonrpc.KindRequest || !modernMeta(m.Params) {
		return
	}
	h.checked = true
	at := func(name string) (int, int) {
		if fd, ok := h.headers[name]; ok {
			return fd.Offset, fd.Len
		}
		return h.end, 2
	}
	value := func(name string) (string, bool) {
		fd, ok := h.headers[name]
		return fd.Value, ok
	}
	mismatch := func(code, name, want string) {
		got, present := value(name)
		summary := fmt.Sprintf("the %s header is missing; the body says %s", name, quote(want))
		if present {
			summary = fmt.Sprintf("the %s header says %s where the body says %s", name, quote(got), quote(want))
		}
		off, n := at(name)
		r.out = append(r.out, Finding{Severity: severityOf(code), Code: code, Summary: summary, Seq: h.seq, Conn: r.f.Conn, Offset: off, Length: n})
	}
	if got, _ := value(mcp.HeaderMethod); got != m.Method {
		mismatch(CodeMcpMethodMismatch, mcp.HeaderMethod, m.Method)
	}
	if want, named := mcp.MirroredName(m.Method, m.Params); named {
		raw, _ := value(mcp.HeaderName)
		if got, err := mcp.DecodeHeaderValue(raw); err != nil || got != want {
			mismatch(CodeMcpNameMismatch, mcp.HeaderName, want)
		}
	}
	if got, _ := value(mcp.HeaderProtocolVersion); got != mcp.Modern {
		mismatch(CodeVersionMismatch, mcp.HeaderProtocolVersion, mcp.Modern)
	}
}

// unknownSession reports an error answered with status 400 to a request
// that named a session, when the error speaks of the session: the spec
// wants 404 for a session the server does not know (or no longer does).
func unknownSession(r *report, h *head, message string) {
	_, named := h.headers[mcp.HeaderSessionID]
	if h.status != http.StatusBadRequest || !named || !strings.Contains(strings.ToLower(message), "session") {
		return
	}
	h.status = 0 // once per exchange
	r.addPath(CodeSessionNot404, fmt.Sprintf("a request naming a session was refused with 400 %s; an unknown session is answered 404", quote(message)), "error.message")
}
