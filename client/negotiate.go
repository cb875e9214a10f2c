package client

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// initializeParams returns the params of the initialize request: p and,
// when the binding declares the encodings it speaks (Traits.Encodings),
// MCP-Flow's transport offer of them.
func (s *Session) initializeParams(p mcp.InitializeParams) json.RawMessage {
	if len(s.traits.Encodings) == 0 {
		return mustJSON(p)
	}
	return mustJSON(struct {
		mcp.InitializeParams
		Transport flow.FlowTransportOffer `json:"transport"`
	}{p, flow.FlowTransportOffer{
		Type: flow.FlowTransportType, Version: flow.FlowTransportVersion, Encodings: s.traits.Encodings,
	}})
}

// negotiate settles the encoding the initialize result of w chose, from
// within deliver, before the engine takes the result: the binding switches
// to it (Traits.Negotiated) before it reads another frame. A choice the
// client did not offer, or a transport member it cannot read, ends the
// session with a *ProtocolError (through Traits.Fail when the binding ends
// a session on a violation itself); the error returned is then the one
// every waiter of the session gets.
func (s *Session) negotiate(w *waiter, result json.RawMessage) error {
	n, err := negotiation(result, w.offered)
	if err != nil {
		perr := &ProtocolError{Msg: err.Error()}
		if fail := s.traits.Fail; fail != nil {
			fail(perr)
		}
		cerr := &ConnectionError{Err: perr}
		s.mu.Lock()
		s.failLocked(cerr)
		s.mu.Unlock()
		return cerr
	}
	if apply := s.traits.Negotiated; apply != nil {
		apply(n)
	}
	return nil
}

// negotiation reads result.transport of an initialize result that offered
// the encodings offered. A result without it, or without an encoding, means
// json. An encoding that was not offered is an error.
func negotiation(result json.RawMessage, offered []string) (flow.Negotiation, error) {
	var r struct {
		Transport *flow.Negotiation `json:"transport"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return flow.Negotiation{}, fmt.Errorf("the initialize result's transport object is malformed: %w", err)
	}
	n := flow.Negotiation{FlowTransport: flow.FlowTransport{Encoding: "json"}}
	if r.Transport != nil {
		n = *r.Transport
		n.Declared = true
		if n.Encoding == "" {
			n.Encoding = "json"
		}
	}
	if !slices.Contains(offered, n.Encoding) {
		return n, fmt.Errorf("the server chose the encoding %q, which the client did not offer (it offered %v)", n.Encoding, offered)
	}
	return n, nil
}
