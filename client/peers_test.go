package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/stdio"
)

// peerGuard bounds a whole session with a real peer; it only fires on a hang.
const peerGuard = guard.Run

// scripted answers the server's questions the way an answers file would:
// every form field gets a value by its name and type, sampling says Paris.
type scripted struct {
	mu    sync.Mutex
	asked []string
}

func (h *scripted) HandleServerRequest(ctx context.Context, method string, params json.RawMessage) (any, error) {
	h.mu.Lock()
	h.asked = append(h.asked, method)
	h.mu.Unlock()
	switch method {
	case mcp.MethodElicitationCreate:
		var p mcp.ElicitRequestParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, err
		}
		var schema struct {
			Properties map[string]struct {
				Type string `json:"type"`
			} `json:"properties"`
		}
		_ = json.Unmarshal(p.RequestedSchema, &schema)
		content := map[string]any{}
		for name, prop := range schema.Properties {
			switch {
			case prop.Type == "boolean":
				content[name] = true
			case prop.Type == "integer" || prop.Type == "number":
				content[name] = 7
			case name == "color":
				content[name] = "teal"
			default:
				content[name] = "Ada"
			}
		}
		return mcp.ElicitResult{Action: mcp.ElicitActionAccept, Content: content}, nil
	case mcp.MethodSamplingCreateMessage:
		text, _ := json.Marshal(mcp.ContentBlock{Type: "text", Text: "Paris"})
		return mcp.CreateMessageResult{Role: "assistant", Content: text, Model: "scripted", StopReason: "endTurn"}, nil
	}
	return nil, &jsonrpc.Error{Code: mcp.CodeMethodNotFound, Message: "not scripted"}
}

func (h *scripted) methods() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.asked...)
}

func connectPeer(t *testing.T, argv []string, opts client.Options) *client.Session {
	t.Helper()
	tr := stdio.New(stdio.Config{Command: argv[0], Args: argv[1:]})
	s := client.New(tr, opts)
	ctx, cancel := context.WithTimeout(context.Background(), peerGuard)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		_ = s.Close()
		t.Fatalf("Connect to %s: %v", argv[0], err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func peerCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), peerGuard)
	t.Cleanup(cancel)
	return ctx
}

// toolText calls a tool and returns the text of its content.
func toolText(t *testing.T, s *client.Session, name string, args any, opts ...client.CallOption) string {
	t.Helper()
	raw, err := s.Call(peerCtx(t), mcp.MethodToolsCall, map[string]any{"name": name, "arguments": args}, opts...)
	if err != nil {
		t.Fatalf("tools/call %s: %v", name, err)
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("tools/call %s result %s: %v", name, raw, err)
	}
	if res.IsError || res.NeedsInput() {
		t.Fatalf("tools/call %s: %s", name, raw)
	}
	var texts []string
	for _, c := range res.Content {
		texts = append(texts, c.Text)
	}
	return strings.Join(texts, "\n")
}

func toolNames(t *testing.T, s *client.Session) map[string]bool {
	t.Helper()
	items, err := s.ListAll(peerCtx(t), mcp.MethodToolsList, "tools", nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	names := map[string]bool{}
	for _, it := range items {
		var tool mcp.Tool
		if err := json.Unmarshal(it, &tool); err != nil {
			t.Fatalf("tool %s: %v", it, err)
		}
		names[tool.Name] = true
	}
	return names
}

// TestPeerGoSDKEverythingLegacy runs the initialize handshake against the
// Go SDK's everything server and answers its server→client requests.
func TestPeerGoSDKEverythingLegacy(t *testing.T) {
	h := &scripted{}
	s := connectPeer(t, peertest.GoSDKEverything(t), client.Options{
		ProtocolVersion: mcp.LatestLegacy,
		Handler:         h,
		Roots:           []mcp.Root{{URI: "file:///srv/project", Name: "project"}},
	})
	if s.Era() != client.EraLegacy || s.ProtocolVersion() != mcp.LatestLegacy || s.ServerInfo().Name != "everything" {
		t.Fatalf("negotiated %s %s with %+v", s.Era(), s.ProtocolVersion(), s.ServerInfo())
	}
	if names := toolNames(t, s); !names["greet"] || !names["roots"] || !names["sample"] {
		t.Fatalf("tools %v", names)
	}
	if got := toolText(t, s, "greet", map[string]string{"name": "Ada"}); got != "Hi Ada" {
		t.Fatalf("greet: %q", got)
	}
	if got := toolText(t, s, "roots", map[string]any{}); got != "project:file:///srv/project" {
		t.Fatalf("roots (answered from Options.Roots): %q", got)
	}
	if got := toolText(t, s, "sample", map[string]any{}); got != "Paris" {
		t.Fatalf("sample (answered by the handler): %q", got)
	}
	toolText(t, s, "ping", map[string]any{}) // the server pings the client mid-call
	// roots/list reaches the handler first; its -32601 hands it to Options.Roots.
	if got := strings.Join(h.methods(), " "); got != "roots/list sampling/createMessage" {
		t.Fatalf("the handler was asked %q, want roots/list then sampling (ping is the engine's)", got)
	}
}

// TestPeerTSEverythingFallsBack talks to a server that answers
// server/discover with -32601: the session falls back to initialize, and
// real progress keeps a call alive past its idle limit. The limit covers
// the server's start too (the probe waits no longer than it), so it
// leaves node room to start on a loaded machine.
func TestPeerTSEverythingFallsBack(t *testing.T) {
	s := connectPeer(t, peertest.TSEverything(t, "stdio"), client.Options{Timeout: 2500 * time.Millisecond})
	if s.Era() != client.EraLegacy || !mcp.IsLegacyVersion(s.ProtocolVersion()) {
		t.Fatalf("negotiated %s %q, want the legacy fallback", s.Era(), s.ProtocolVersion())
	}
	if got := toolText(t, s, "echo", map[string]string{"message": "hi"}); got != "Echo: hi" {
		t.Fatalf("echo: %q", got)
	}
	var mu sync.Mutex
	var steps []float64
	got := toolText(t, s, "trigger-long-running-operation", map[string]any{"duration": 4, "steps": 8},
		client.WithProgress(func(p mcp.ProgressNotificationParams) {
			mu.Lock()
			steps = append(steps, p.Progress)
			mu.Unlock()
		}))
	if !strings.Contains(got, "Steps: 8") {
		t.Fatalf("long running operation: %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(steps) < 3 || steps[0] != 1 {
		t.Fatalf("progress %v", steps)
	}
}

// TestPeerConformanceModern negotiates 2026-07-28 with the Go SDK
// conformance server on stdio and completes its MRTR tools.
func TestPeerConformanceModern(t *testing.T) {
	h := &scripted{}
	s := connectPeer(t, []string{peertest.GoSDKConformance(t)}, client.Options{
		Handler: h,
		Roots:   []mcp.Root{{URI: "file:///srv/a", Name: "a"}},
	})
	if s.Era() != client.EraModern || s.ProtocolVersion() != mcp.Modern {
		t.Fatalf("negotiated %s %q, want modern %s", s.Era(), s.ProtocolVersion(), mcp.Modern)
	}
	if s.ServerInfo().Name != "mcp-conformance-test-server" {
		t.Fatalf("server info %+v", s.ServerInfo())
	}
	names := toolNames(t, s)
	cases := []struct{ tool, want string }{
		{"test_input_required_result_elicitation", "Hello, Ada!"},
		{"test_input_required_result_sampling", "Sampling response: Paris"},
		{"test_input_required_result_list_roots", "Client exposed 1 root(s): file:///srv/a"},
		{"test_input_required_result_request_state", "state-ok"},
		{"test_input_required_result_tampered_state", "state-ok"},
		{"test_input_required_result_multiple_inputs", "Paris Ada — 1 root(s) visible"},
		{"test_input_required_result_multi_round", "Multi-round complete: Ada likes teal"},
		{"test_input_required_result_capabilities", "Capability-aware input requests fulfilled"},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			if !names[c.tool] {
				t.Fatalf("the server does not list %s", c.tool)
			}
			var rounds []jsonrpc.ID
			got := toolText(t, s, c.tool, map[string]any{}, client.WithRounds(func(_ int, id jsonrpc.ID) { rounds = append(rounds, id) }))
			if !strings.Contains(got, c.want) {
				t.Fatalf("%s: %q, want %q", c.tool, got, c.want)
			}
			if len(rounds) < 2 {
				t.Fatalf("%s finished in %d round(s); the server asked for no input", c.tool, len(rounds))
			}
		})
	}
	raw, err := s.Call(peerCtx(t), mcp.MethodPromptsGet, mcp.GetPromptParams{Name: "test_input_required_result_prompt"})
	if err != nil {
		t.Fatalf("prompts/get: %v", err)
	}
	var prompt mcp.GetPromptResult
	if err := json.Unmarshal(raw, &prompt); err != nil || len(prompt.Messages) == 0 || prompt.Messages[0].Content.Text != "Context: Ada" {
		t.Fatalf("prompts/get after input: %s", raw)
	}
	// ping is gone in 2026-07-28: the server answers -32601, as an RPCError.
	_, err = s.Call(peerCtx(t), mcp.MethodPing, nil)
	var rpcErr *client.RPCError
	if !errors.As(err, &rpcErr) || rpcErr.Err.Code != mcp.CodeMethodNotFound {
		t.Fatalf("ping: %v", err)
	}
}
