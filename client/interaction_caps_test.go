package client

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// TestInteractiveCapabilities: the initialize result's
// capabilities.interactive wins, then the `capabilities` answer; -32601
// and -32007 mean "not interactive" without an error, any other error is
// returned.
func TestInteractiveCapabilities(t *testing.T) {
	features := map[string]any{"statefulSessions": true, "progressTracking": true, "validation": true,
		"multiplePromptTypes": true, "sessionPersistence": false}
	cases := []struct {
		name     string
		caps     map[string]any
		answer   func(w *wire, m *jsonrpc.Message)
		want     mcp.InteractiveCapabilities
		wantErr  int
		wantCall bool
	}{
		{name: "initialize object", caps: map[string]any{"interactive": map[string]any{"version": "0.1.0", "features": features}},
			want: mcp.InteractiveCapabilities{Interactive: true, Version: "0.1.0", Features: map[string]bool{"statefulSessions": true,
				"progressTracking": true, "validation": true, "multiplePromptTypes": true, "sessionPersistence": false}}},
		{name: "initialize true", caps: map[string]any{"interactive": true}, want: mcp.InteractiveCapabilities{Interactive: true}},
		{name: "initialize false", caps: map[string]any{"interactive": false}},
		{name: "capabilities call", wantCall: true,
			answer: func(w *wire, m *jsonrpc.Message) {
				w.s.rawResult(*m.ID, `{"interactive":true,"version":"0.1.0","features":{"validation":true}}`)
			},
			want: mcp.InteractiveCapabilities{Interactive: true, Version: "0.1.0", Features: map[string]bool{"validation": true}}},
		{name: "method not found", wantCall: true,
			answer: func(w *wire, m *jsonrpc.Message) { w.s.fail(*m.ID, mcp.CodeMethodNotFound, "Method not found") }},
		{name: "not interactive", wantCall: true,
			answer: func(w *wire, m *jsonrpc.Message) { w.s.fail(*m.ID, mcp.CodeNotInteractive, "NOT_INTERACTIVE") }},
		{name: "internal error", wantCall: true, wantErr: mcp.CodeInternalError,
			answer: func(w *wire, m *jsonrpc.Message) { w.s.fail(*m.ID, mcp.CodeInternalError, "boom") }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, ft, done := interactiveServer(t, c.caps, Options{}, func(w *wire) {
				if c.answer == nil {
					return
				}
				m := w.request(mcp.MethodCapabilities)
				if m.Params != nil {
					w.s.t.Errorf("capabilities sent params %s", m.Params)
				}
				c.answer(w, m)
			})
			got, err := s.InteractiveCapabilities(testCtx(t))
			var rpcErr *RPCError
			switch {
			case c.wantErr != 0 && (!errors.As(err, &rpcErr) || rpcErr.Err.Code != c.wantErr):
				t.Fatalf("error %v, want code %d", err, c.wantErr)
			case c.wantErr == 0 && err != nil:
				t.Fatal(err)
			}
			a, _ := json.Marshal(got)
			b, _ := json.Marshal(c.want)
			if string(a) != string(b) {
				t.Fatalf("capabilities %s, want %s", a, b)
			}
			waitDone(t, done)
			called := false
			for _, m := range ft.srv.sentMessages() {
				called = called || m.Method == mcp.MethodCapabilities
			}
			if called != c.wantCall {
				t.Fatalf("capabilities called %v, want %v", called, c.wantCall)
			}
		})
	}
}

// TestInteractionBypassesHandler: interaction requests never reach the
// ServerRequestHandler; an unknown sessionId is answered -32001 and
// params without one -32602.
func TestInteractionBypassesHandler(t *testing.T) {
	handled := make(chan string, 4)
	h := handlerFunc(func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		handled <- method
		return map[string]any{}, nil
	})
	_, _, done := interactiveServer(t, nil, Options{Handler: h}, func(w *wire) {
		ans := w.ask(mcp.MethodInteractionPrompt, raw(`{"sessionId":"nope","prompt":{"type":"text","message":"?"}}`))
		w.wantError(ans, mcp.CodeSessionNotFound)
		if ans.Error != nil && (ans.Error.Message != "Session not found: nope" || string(ans.Error.Data) != `{"sessionId":"nope"}`) {
			w.s.t.Errorf("error %+v data %s", ans.Error, ans.Error.Data)
		}
		w.wantError(w.ask(mcp.MethodInteractionContinue, raw(`{"sessionId":"nope"}`)), mcp.CodeSessionNotFound)
		w.wantError(w.ask(mcp.MethodInteractionComplete, raw(`{"sessionId":"nope"}`)), mcp.CodeSessionNotFound)
		w.wantError(w.ask(mcp.MethodInteractionPrompt, raw(`[1]`)), mcp.CodeInvalidParams)
		w.wantResult(w.ask("elicitation/create", raw(`{}`)), `{}`)
	})
	waitDone(t, done)
	close(handled)
	var got []string
	for m := range handled {
		got = append(got, m)
	}
	if len(got) != 1 || got[0] != "elicitation/create" {
		t.Fatalf("the handler saw %v, want only elicitation/create", got)
	}
}
