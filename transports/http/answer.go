package mcphttp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// mediaType is the media type of a response, lower case, without
// parameters.
func mediaType(h http.Header) string {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		return strings.ToLower(strings.TrimSpace(h.Get("Content-Type")))
	}
	return mt
}

// answer reads what answers the exchange's POST.
func (t *Transport) answer(ex *exchange, rsp *http.Response) {
	status := rsp.StatusCode
	if status >= 200 && status < 300 {
		t.answered()
	}
	switch {
	case t.cfg.Mode == ModeTools:
		t.toolsAnswer(ex, rsp)
	case ex.target != nil && status >= 200 && status < 300:
		t.drain(ex, rsp) // the legacy transport answers on the SSE stream
		ex.mu.Lock()
		ex.elsewhere = ex.request
		ex.mu.Unlock()
	case status == http.StatusNotFound && t.expiredSession(ex):
		t.restartSession(ex)
	case status >= 300:
		t.refused(ex, rsp)
	case !ex.request:
		// The spec says 202 and no body; any 2xx accepts a notification or
		// a response, and what a body holds is still read.
		t.notificationAccepted(ex)
		if status == http.StatusAccepted || status == http.StatusNoContent {
			t.drain(ex, rsp)
		} else {
			t.readAnswer(ex, rsp)
		}
	case status == http.StatusAccepted || status == http.StatusNoContent:
		t.drain(ex, rsp)
		ex.fail(status, fmt.Errorf("the server accepted %s with %s and sent no answer", ex.msg.Describe(), rsp.Status))
	default:
		if ex.msg.Method == mcp.MethodInitialize {
			t.takeSession(rsp)
		}
		t.readAnswer(ex, rsp)
	}
}

// readAnswer reads a 2xx answer by its media type; one in a
// Content-Encoding mcpscope did not ask for is only captured.
func (t *Transport) readAnswer(ex *exchange, rsp *http.Response) {
	if cause := httphead.UnaskedEncoding(rsp.Header); cause != nil {
		t.drain(ex, rsp)
		ex.fail(rsp.StatusCode, fmt.Errorf("the answer to %s cannot be read: %w", ex.msg.Describe(), cause))
		return
	}
	switch mt := mediaType(rsp.Header); mt {
	case "application/json":
		t.readJSON(ex, rsp.Body, rsp.ContentLength)
	case "text/event-stream":
		t.readStream(ex, rsp.Body)
	default:
		t.drain(ex, rsp)
		if ex.request {
			ex.fail(rsp.StatusCode, fmt.Errorf("the server answered %s with Content-Type %q, neither application/json nor text/event-stream",
				ex.msg.Describe(), rsp.Header.Get("Content-Type")))
		}
	}
}

// drain captures whatever body came with a response that should have
// none, and closes it.
func (t *Transport) drain(ex *exchange, rsp *http.Response) {
	t.drainBody(ex.conn, rsp)
}

// drainBody captures the head of a body on conn that is not read as
// JSON-RPC.
func (t *Transport) drainBody(conn string, rsp *http.Response) {
	b, _ := io.ReadAll(io.LimitReader(rsp.Body, DefaultErrorBody))
	if len(b) > 0 {
		t.reportText(conn, "body", b)
	}
}

// readJSON reads a JSON answer of at most MaxFrameSize bytes and delivers
// what it holds. declared is the body's Content-Length, or -1.
func (t *Transport) readJSON(ex *exchange, body io.Reader, declared int64) {
	max := t.cfg.MaxFrameSize
	b, err := io.ReadAll(io.LimitReader(body, int64(max)+1))
	if err != nil {
		if ex.ctx.Err() == nil {
			ex.fail(0, fmt.Errorf("reading the answer to %s: %w", ex.msg.Describe(), err))
		}
		return
	}
	if len(b) > max {
		t.tooBig(ex, b, declared)
		return
	}
	if len(b) == 0 && !ex.request {
		return // an empty body accepting a notification
	}
	for _, m := range t.reportBody(capture.In, ex.conn, b, nil) {
		t.route(ex, m)
	}
	if ex.request && !ex.isAnswered() && ex.ctx.Err() == nil {
		ex.fail(http.StatusOK, fmt.Errorf("the JSON answer to %s holds no response with its id", ex.msg.Describe()))
	}
}

// tooBig fails the request whose JSON answer b, cut at MaxFrameSize+1
// bytes, is over the limit: as a violation of its answer when the head
// names its id, else as an exchange that could not carry it.
func (t *Transport) tooBig(ex *exchange, b []byte, declared int64) {
	limit := t.cfg.MaxFrameSize
	cause := &flow.FrameTooLargeError{Size: max(declared, int64(len(b))), Max: int64(limit)}
	head := b[:min(len(b), 64<<10)]
	t.reportText(ex.conn, "body (head)", head)
	if m := jsonrpc.NewViolation(head, cause); m != nil && ex.request && *m.ID == *ex.msg.ID {
		if ex.settle() {
			ex.hand(m)
		}
		return
	}
	ex.fail(http.StatusOK, fmt.Errorf("the answer to %s is over %d bytes: %w", ex.msg.Describe(), limit, cause))
}

// route delivers one message read from an exchange's answer: its answer
// once (a second one is only captured), anything else as it comes.
func (t *Transport) route(ex *exchange, m *jsonrpc.Message) {
	if m.IsResponse() && m.ID != nil && (ex == nil || !ex.answers(m)) {
		// An answer on another stream than its POST's (the legacy SSE
		// stream, the standalone GET stream) settles its own exchange.
		t.mu.Lock()
		owner := t.exchanges[*m.ID]
		t.mu.Unlock()
		if owner != nil && owner.answers(m) {
			ex = owner
			defer owner.forget()
		} else if ex != nil {
			ex.carriedInstead(*m.ID)
		}
	}
	if m.IsResponse() && m.ID == nil && ex != nil {
		ex.carriedInstead(jsonrpc.ID{}) // id null answers no request
	}
	if ex != nil && ex.answers(m) {
		if !ex.settle() {
			return
		}
		t.noteVersion(ex, m)
		ex.hand(m)
		return
	}
	t.deliverMsg(m)
}

// refused reads a response of status 3xx, 4xx or 5xx. A JSON-RPC body is
// the server's answer and is delivered as such (an error with id null
// answers the request this POST carried); anything else fails the
// request with the status.
func (t *Transport) refused(ex *exchange, rsp *http.Response) {
	b, _ := io.ReadAll(io.LimitReader(rsp.Body, DefaultErrorBody))
	if t.deliverErrorBody(ex, b) {
		if !ex.isAnswered() {
			ex.fail(rsp.StatusCode, statusError(rsp, nil))
		}
		return
	}
	if len(b) > 0 {
		t.reportText(ex.conn, "body", b)
	}
	if t.fallBack(ex, rsp.StatusCode) {
		return
	}
	ex.fail(rsp.StatusCode, statusError(rsp, b))
}

// deliverErrorBody delivers the JSON-RPC messages of a refusal's body and
// reports whether it held any. An error with id null answers the request
// the POST carried.
func (t *Transport) deliverErrorBody(ex *exchange, b []byte) bool {
	msgs, _, err := jsonrpc.DecodeJSON(b)
	if err != nil || len(msgs) == 0 || len(b) == 0 {
		return false
	}
	t.reportBody(capture.In, ex.conn, b, nil)
	for _, m := range msgs {
		if ex.request && m.Error != nil && (m.ID == nil || m.ID.IsNull()) {
			id := *ex.msg.ID
			m.ID = &id
		}
		t.route(ex, m)
	}
	return true
}

// statusError words an HTTP status that carried no JSON-RPC answer: the
// first line of its body (unless in a Content-Encoding not asked for),
// and what the status says of a retry.
func statusError(rsp *http.Response, body []byte) error {
	msg := "HTTP " + rsp.Status
	if cause := httphead.UnaskedEncoding(rsp.Header); cause != nil {
		msg += " (" + cause.Error() + ")"
	} else if head := firstLine(body, 200); head != "" {
		msg += ": " + head
	}
	switch s := rsp.StatusCode; {
	case s == http.StatusUnauthorized || s == http.StatusForbidden:
		msg += " (the server wants credentials: --header 'Authorization: Bearer …')"
	case httphead.TransientStatus(s):
		msg += " (transient: the request may succeed later"
		if ra := rsp.Header.Get("Retry-After"); ra != "" {
			msg += "; Retry-After " + ra
		}
		msg += ")"
	case httphead.UndefinedStatus(s):
		msg += " (not a status HTTP defines)"
	case s >= 500:
		msg += " (the server failed)"
	}
	return errors.New(msg)
}

// firstLine is the first line of a body, at most n bytes, for an error
// sentence (the CLI sanitizes what it prints).
func firstLine(b []byte, n int) string {
	s := strings.TrimSpace(string(b[:min(len(b), n)]))
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}

// reportText captures a body that is not JSON-RPC on the HTTP channel.
func (t *Transport) reportText(conn, name string, b []byte) {
	t.report(capture.In, conn, &capture.Frame{
		Chan: capture.Channel{Kind: capture.HTTP}, Raw: b, Enc: proto.EncText,
		Fields: []proto.Field{{Offset: 0, Len: len(b), Name: name, Kind: proto.FieldBody}},
	})
}

// noteVersion keeps the protocol version an initialize answer settled,
// for the MCP-Protocol-Version header of every later request.
func (t *Transport) noteVersion(ex *exchange, m *jsonrpc.Message) {
	if ex.msg.Method != mcp.MethodInitialize || m.Error != nil {
		return
	}
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(m.Result, &res) == nil && res.ProtocolVersion != "" {
		t.mu.Lock()
		t.version = res.ProtocolVersion
		t.mu.Unlock()
	}
}
