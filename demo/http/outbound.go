package demohttp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// router says where the messages of one demo connection go.
type router interface {
	// callStream returns the stream of request id (its answer and the
	// call's own messages), and whether the answer ends that stream; nil
	// when the request has none (any more).
	callStream(id jsonrpc.ID) (*stream, bool)
	// otherStream returns the stream for messages of no call (the GET
	// stream of a session), or nil when there is none.
	otherStream() *stream
}

// expirer is a router whose session misbehave expire_session can end.
type expirer interface {
	expire(id jsonrpc.ID) error
}

// errNoStream refuses a message that has nowhere to go.
var errNoStream = errors.New("no open stream takes this message")

// outbound is the demo.Outbound of one MCP connection over HTTP: each
// message goes on the stream its router names.
type outbound struct {
	h *Handler
	r router
	// noRequests refuses server→client requests, saying why (stateless).
	noRequests string
	// status is the HTTP status of an answer sent as one body (nil: 200).
	status func(*jsonrpc.Message) int
	// added are the tools the connection serves beside the demo's
	// (stateless: route and route_clash).
	added []demo.Tool
	// modern says the client speaks 2026-07-28: results carry cache hints.
	modern bool
}

var (
	_ demo.Outbound      = (*outbound)(nil)
	_ demo.ContextSender = (*outbound)(nil)
	_ demo.Saboteur      = (*outbound)(nil)
	_ demo.CacheHinter   = (*outbound)(nil)
	_ demo.ToolAdder     = (*outbound)(nil)
)

// AddedTools are the tools the connection serves beside the demo's
// (demo.ToolAdder).
func (o *outbound) AddedTools() []demo.Tool { return o.added }

// Send puts a response on its request's stream, anything else on the
// stream of no call.
func (o *outbound) Send(m *jsonrpc.Message) error {
	data, err := m.EncodeJSON()
	if err != nil {
		return err
	}
	if m.IsResponse() && m.ID != nil {
		st, final := o.r.callStream(*m.ID)
		if st == nil {
			return fmt.Errorf("the answer to %s: %w", m.ID, errNoStream)
		}
		it := item{data: data, final: final}
		if final && o.status != nil {
			it.status = o.status(m)
		}
		return st.push(it)
	}
	return o.sendOther(m, data)
}

// SendContext puts a message of a call on that call's stream, when it is
// an SSE stream still open; else as Send would.
func (o *outbound) SendContext(ctx context.Context, m *jsonrpc.Message) error {
	id, ok := demo.CallID(ctx)
	if !ok || m.IsResponse() {
		return o.Send(m)
	}
	data, err := m.EncodeJSON()
	if err != nil {
		return err
	}
	if err := o.refuse(m); err != nil {
		return err
	}
	if st, _ := o.r.callStream(id); st != nil && st.push(item{data: data}) == nil {
		return nil
	}
	return o.sendOther(m, data)
}

// sendOther puts a message on the stream of no call.
func (o *outbound) sendOther(m *jsonrpc.Message, data []byte) error {
	if err := o.refuse(m); err != nil {
		return err
	}
	st := o.r.otherStream()
	if st == nil {
		return fmt.Errorf("%s: %w", m.Method, errNoStream)
	}
	return st.push(item{data: data})
}

// refuse refuses a server→client request where there are none.
func (o *outbound) refuse(m *jsonrpc.Message) error {
	if o.noRequests != "" && m.Kind() == jsonrpc.KindRequest {
		return errors.New(o.noRequests)
	}
	return nil
}

// Emitter returns the call's emitter: notifications on the call's stream.
// A stream the call owns is closed when the call ends unanswered
// (cancelled), so that its response ends.
func (o *outbound) Emitter(ctx context.Context, info demo.CallInfo) demo.Emitter {
	if st, owned := o.r.callStream(info.ID); st != nil && owned {
		context.AfterFunc(ctx, st.endUnanswered)
	}
	send := func(m *jsonrpc.Message) error { return o.SendContext(ctx, m) }
	return demo.NotificationEmitter{Send: send, Token: info.ProgressToken}
}

// Modes are the misbehave modes of HTTP (demo.Saboteur).
func (o *outbound) Modes() []string { return demo.HTTPModes }

// Sabotage performs an HTTP misbehave mode on the call's stream.
func (o *outbound) Sabotage(ctx context.Context, mode string, id jsonrpc.ID, args json.RawMessage) (string, error) {
	st, _ := o.r.callStream(id)
	return o.h.sabotage(ctx, sabotageTarget{st: st, r: o.r, id: id}, mode, args)
}

// CacheHints says whether results carry cache hints (demo.CacheHinter).
func (o *outbound) CacheHints() bool { return o.modern }
