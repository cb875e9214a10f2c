package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// maxAnnotationPages bounds the pages of the tools/list the engine sends on its
// own to learn the tools' x-mcp-header annotations.
const maxAnnotationPages = 20

// mirrorsParams reports whether a request of method goes out with the
// Mcp-Param headers of its tool's annotations: a tools/call of a
// 2026-07-28 session on a transport that carries them.
func (s *Session) mirrorsParams(method string) bool {
	return s.traits.MirrorsParams && method == mcp.MethodToolsCall && s.Era() == EraModern
}

// learnAnnotations keeps the x-mcp-header annotations a tools/list result
// declares, when the session mirrors arguments into headers.
func (s *Session) learnAnnotations(method string, result json.RawMessage) {
	if method == mcp.MethodToolsList && s.traits.MirrorsParams && s.Era() == EraModern {
		s.tools.learn(result)
	}
}

// withCallHeaders hands the transport, in the returned context, the
// Mcp-Param headers of the tools/call msg. Before the first such call of a
// session that has not listed the tools, the engine lists them on its own
// behalf: a conforming client must mirror the annotated arguments, and a
// headless call knows nothing of the tool. A call made while that listing
// runs waits for it within ctx. A tool whose annotations are invalid is
// refused with an *ExchangeError, the call not sent.
func (s *Session) withCallHeaders(ctx context.Context, msg *jsonrpc.Message) (context.Context, error) {
	if !s.mirrorsParams(msg.Method) {
		return ctx, nil
	}
	var call struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Meta      json.RawMessage `json:"_meta"`
	}
	_ = json.Unmarshal(msg.Params, &call)
	first, listed := s.tools.listing()
	if first {
		s.listTools(ctx, call.Meta)
		s.tools.doneListing()
	}
	select {
	case <-listed:
	case <-ctx.Done():
		return ctx, fmt.Errorf("waiting for the tools' x-mcp-header annotations: %w", context.Cause(ctx))
	}
	ph, err := s.tools.headers(call.Name, call.Arguments)
	if err != nil {
		return ctx, &ExchangeError{Err: err}
	}
	return withParamHeaders(ctx, ph), nil
}

// listTools lists the server's tools, every page, to learn their
// annotations. The requests carry ids of their own
// ("mcpscope-tools/list-N"), the _meta of the call that needs them (its
// protocol version, client info and capabilities) but for its progress
// token, and OwnRequestMeta; their answers reach no caller. ctx bounds
// them; a failure leaves the tools unknown, or known from the pages read.
func (s *Session) listTools(ctx context.Context, meta json.RawMessage) {
	raw, err := marshalParams(map[string]any{"_meta": withoutProgressToken(meta)})
	if err == nil {
		raw, err = withMeta(raw, []member{{Key: OwnRequestMeta, Value: mustJSON("x-mcp-header")}}, true)
	}
	if err != nil {
		return
	}
	call := func(page int, params json.RawMessage) (json.RawMessage, error) {
		return s.ownRequest(ctx, jsonrpc.StringID(fmt.Sprintf("mcpscope-tools/list-%d", page)), mcp.MethodToolsList, params)
	}
	_ = followPages(mcp.MethodToolsList, raw, maxAnnotationPages, call, func(_ int, result json.RawMessage, _ map[string]json.RawMessage) error {
		s.tools.learn(result)
		return nil
	})
}

// withoutProgressToken returns the _meta object meta without its
// progressToken: progress of the engine's own request would be reported
// under the token of the call that asked for it. Anything that is no
// object is returned as it is.
func withoutProgressToken(meta json.RawMessage) json.RawMessage {
	ms, err := objectMembers(meta)
	if err != nil || len(ms) == 0 {
		return meta
	}
	return encodeMembers(setMember(ms, mcp.MetaProgressToken, nil))
}

// ownRequest sends a request of the engine's own, outside the in-flight
// slots, and waits for its answer within ctx. When ctx ends first, what
// the transport holds open for it is let go (Traits.Forget).
func (s *Session) ownRequest(ctx context.Context, id jsonrpc.ID, method string, params json.RawMessage) (json.RawMessage, error) {
	msg, err := jsonrpc.NewRequest(id, method, params)
	if err != nil {
		return nil, err
	}
	w := newWaiter(id, method)
	if err := s.register(w); err != nil {
		return nil, err
	}
	if err := s.t.Send(ctx, msg); err != nil {
		s.take(w)
		return nil, err
	}
	select {
	case out := <-w.done:
		return out.result, out.err
	case <-ctx.Done():
		if s.take(w) && s.traits.Forget != nil {
			s.traits.Forget(id)
		}
		return nil, ctx.Err()
	}
}
