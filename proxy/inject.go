package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// Inject sends a viewer's message to the server as if the host had sent
// it, marked as injected. A request is given an id of the session's own
// namespace (a random prefix no host uses, and never an id the host has in
// flight), returned here; its answer is captured and kept from the host.
// A notification goes as it is, and its id is "".
func (s *Session) Inject(ctx context.Context, body []byte) (id string, err error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return "", fmt.Errorf("an injected message is one JSON-RPC object: %w", err)
	}
	var method string
	if err := json.Unmarshal(m["method"], &method); err != nil || method == "" {
		return "", errors.New("an injected message is a request or a notification: it needs a method")
	}
	s.mu.Lock()
	inj := s.injector
	request := m["id"] != nil && string(m["id"]) != "null"
	if request {
		for {
			s.nInject++
			id = s.space + strconv.FormatUint(s.nInject, 10)
			if !s.calls.inFlight(capture.Out, "s"+id) {
				break
			}
		}
		m["id"], _ = json.Marshal(id)
	}
	if _, ok := m["jsonrpc"]; !ok {
		m["jsonrpc"] = json.RawMessage(`"2.0"`)
	}
	s.mu.Unlock()
	if inj == nil {
		return "", ErrNoServerPath
	}
	out, err := json.Marshal(m)
	if err != nil {
		return "", err
	}
	h := Hop{Dir: capture.Out, Chan: capture.Channel{Kind: capture.Control}, Raw: out, Body: out, Enc: proto.EncJSON}
	msg := decode(h)
	s.mu.Lock()
	a := s.calls.see(capture.Out, msg)
	s.mu.Unlock()
	s.mark(capture.Out, "", Mark{What: WhatInjected, ID: id, Method: a.method, Tool: a.tool})
	s.capture(&capture.Frame{Dir: capture.Out, Chan: h.Chan, Raw: out, Size: len(out), Enc: proto.EncJSON, Msg: msg})
	if err := inj(ctx, out); err != nil {
		return "", fmt.Errorf("injecting %s: %w", method, err)
	}
	return id, nil
}

// injectedAnswer says a response with the id key answers a request a
// viewer injected: its id is in the session's own namespace. Nothing is
// kept per injected request, so requests the server never answers cost
// nothing.
func (s *Session) injectedAnswer(a about) bool {
	return a.response && strings.HasPrefix(a.id, "s"+s.space)
}
