package demohttp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// sabotageTarget is what a misbehave mode acts on: the call's stream, and
// the router of its connection (a session, for expire_session).
type sabotageTarget struct {
	st *stream
	r  any
	id jsonrpc.ID
}

// sabotageArgs are the misbehave arguments of the HTTP modes.
type sabotageArgs struct {
	Size   *int64 `json:"size"`
	Abrupt bool   `json:"abrupt"`
}

// refusal is the -32602 of an HTTP mode this request cannot do.
func refusal(mode, why string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: mcp.CodeInvalidParams, Message: fmt.Sprintf("misbehave mode %q %s", mode, why)}
}

// sabotage performs an HTTP misbehave mode (see demo.HTTPModes).
func (h *Handler) sabotage(ctx context.Context, t sabotageTarget, mode string, raw json.RawMessage) (string, error) {
	var a sabotageArgs
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &a); err != nil {
			return "", &jsonrpc.Error{Code: mcp.CodeInvalidParams, Message: "misbehave arguments: " + err.Error()}
		}
	}
	if t.st == nil {
		return "", refusal(mode, "needs the call's own stream, and this call has none")
	}
	switch mode {
	case demo.ModeCutSSE:
		return cutSSE(t.st, a.Abrupt)
	case demo.ModeExpireSession:
		ex, ok := t.r.(expirer)
		if !ok {
			return "", refusal(mode, "needs a session (Streamable HTTP with Mcp-Session-Id, or legacy HTTP+SSE); this request has none")
		}
		if err := ex.expire(t.id); err != nil {
			return "", err
		}
		return "this session has expired: the next request on it gets 404", nil
	case demo.ModeWrongContentType:
		if !t.st.setHTML() {
			return "", refusal(mode, "needs a response whose headers are not sent yet; this stream's went out already")
		}
		return "answered with Content-Type text/html", nil
	case demo.ModeEmptyEvent:
		if err := t.st.push(item{noData: true}); err != nil {
			return "", notSSE(mode, err)
		}
		return "sent an event with no data field", nil
	case demo.ModeHugeEvent:
		n := int64(demo.DefaultHugeEvent)
		if a.Size != nil {
			n = *a.Size
		}
		if n < 1 || n > demo.MaxHugeEvent {
			return "", &jsonrpc.Error{Code: mcp.CodeInvalidParams, Message: fmt.Sprintf("size must be between 1 and %d, got %d", int64(demo.MaxHugeEvent), n)}
		}
		if err := t.st.push(item{huge: n}); err != nil {
			return "", notSSE(mode, err)
		}
		return hugeText(n), nil
	case demo.ModeHeartbeatsOnly:
		if !t.st.startHeartbeats(true) {
			return "", refusal(mode, "needs an SSE stream; this answer is one JSON body")
		}
		<-ctx.Done()
		return "", demo.ErrNoAnswer
	}
	return "", demo.RefuseMode(mode, "HTTP")
}

// cutSSE sends a log line as an event with an id and a retry field, after
// which the writer ends the response (or resets the connection).
func cutSSE(st *stream, abrupt bool) (string, error) {
	if !st.cfg.ids {
		return "", refusal(demo.ModeCutSSE, "needs a resumable stream (Streamable HTTP with a session); this stream has no event ids")
	}
	n, err := jsonrpc.NewNotification(mcp.MethodNotifyMessage, mcp.LoggingMessageParams{Level: "notice", Logger: "misbehave",
		Data: json.RawMessage(`"the stream is cut after this event; resume it with Last-Event-ID to get the answer"`)})
	if err != nil {
		return "", err
	}
	data, err := n.EncodeJSON()
	if err != nil {
		return "", err
	}
	cut := cutClean
	if abrupt {
		cut = cutAbrupt
	}
	if err := st.push(item{data: data, retry: true, cut: cut}); err != nil {
		return "", notSSE(demo.ModeCutSSE, err)
	}
	if abrupt {
		return "reset the connection after an event with an id; the answer waits for Last-Event-ID", nil
	}
	return "ended the response after an event with an id and a retry field; the answer waits for Last-Event-ID", nil
}

// notSSE words a push refused by a one-body answer.
func notSSE(mode string, err error) error {
	return refusal(mode, "needs an SSE stream: "+err.Error())
}
