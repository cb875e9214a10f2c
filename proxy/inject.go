package proxy

import (
	"bytes"
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
// A notification (no "id") goes as it is, and its id is "". A null id is
// refused: it is neither, and a server's answer to it (id null too) could
// not be told from an answer to what the host could not send right.
func (s *Session) Inject(ctx context.Context, body []byte) (id string, err error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return "", fmt.Errorf("an injected message is one JSON-RPC object: %w", err)
	}
	var method string
	if err := json.Unmarshal(m["method"], &method); err != nil || method == "" {
		return "", errors.New("an injected message is a request or a notification: it needs a method")
	}
	if _, ok := m["jsonrpc"]; !ok {
		m["jsonrpc"] = json.RawMessage(`"2.0"`)
	}
	rawID, request := m["id"]
	if request && string(bytes.TrimSpace(rawID)) == "null" {
		// A null id is how a server answers what it could not read: a
		// request must have a real one (the proxy gives its own).
		return "", errors.New(`an injected request's id cannot be null: give it any id (the proxy replaces it with one of its own), or leave "id" out for a notification`)
	}
	// The id is chosen and the request remembered in one hold of the lock,
	// so that no host request takes the id in between.
	s.mu.Lock()
	inj := s.injector
	if inj == nil {
		s.mu.Unlock()
		return "", ErrNoServerPath
	}
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
	out, err := json.Marshal(m)
	if err != nil {
		s.mu.Unlock()
		return "", err
	}
	h := Hop{Dir: capture.Out, Chan: capture.Channel{Kind: capture.Control}, Raw: out, Body: out, Enc: proto.EncJSON}
	msg := decode(h)
	a := s.calls.see(capture.Out, "", msg)
	a.resolve()
	if request {
		s.calls.injected(capture.Out, a.id)
	}
	s.mu.Unlock()
	// The message is captured first, and the mark names it by its Seq:
	// frames of other connections may come between the two.
	seq := s.capture(&capture.Frame{Dir: capture.Out, Chan: h.Chan, Raw: out, Size: len(out), Enc: proto.EncJSON, Msg: msg})
	s.Mark(capture.Out, "", Mark{What: WhatInjected, Seq: seq, ID: idText(msg), Method: a.method, Tool: a.tool})
	if err := inj(ctx, out); err != nil {
		if request {
			s.mu.Lock()
			s.calls.forget(capture.Out, a.id)
			s.mu.Unlock()
		}
		return "", fmt.Errorf("injecting %s: %w", method, err)
	}
	return id, nil
}

// injectedAnswer says a response answers a request a viewer injected:
// the request it answers was injected, or, when that request is forgotten
// (see maxCalls), its id is in the session's own namespace. So the
// requests a server never answers cost only their bounded place in calls.
func (s *Session) injectedAnswer(a about) bool {
	return a.response && (a.injected || !a.known && strings.HasPrefix(a.id, "s"+s.space))
}
