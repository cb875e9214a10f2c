package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// interactiveEntry is capabilities.interactive of the initialize result.
func interactiveEntry() json.RawMessage {
	b, err := json.Marshal(map[string]any{"version": InteractionVersion, "features": interactiveFeatures()})
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return b
}

// registerWizard registers a wizard and its tool: tools/list shows it to
// every client, marked interactive in its _meta, and a plain tools/call runs it with every answer given up
// front (seed 002, "Graceful Degradation").
func (s *Server) registerWizard(w *wizard) error {
	how := "Interactive (interaction.start): "
	if w.Stateless {
		how = "Interactive and stateless (interaction.start; the sessionId is a signed token): "
	}
	err := s.Register(Tool{Name: w.Tool, Description: how + w.Description + ". A plain tools/call takes every answer as arguments.",
		InputSchema: w.inputSchema(), Handler: w.callTool, Interactive: true})
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.wizards[w.Tool] = w
	s.mu.Unlock()
	return nil
}

// wizard looks a wizard up by tool name.
func (s *Server) wizard(name string) (*wizard, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	w, ok := s.wizards[name]
	return w, ok
}

// callTool runs the wizard without a session: every answer comes in the
// arguments and is checked as the prompt would check it. A missing or
// refused answer is a tool error that says how to go on.
func (w *wizard) callTool(_ context.Context, c *Call) (*ToolResult, error) {
	var given map[string]json.RawMessage
	if err := decodeArgs(c, &given); err != nil {
		return nil, err
	}
	data, missing, err := w.checkAnswers(given, time.Now())
	if err != nil {
		return &ToolResult{Content: []any{Text(err.Error())}, IsError: true}, nil
	}
	if len(missing) > 0 {
		return &ToolResult{Content: []any{Text(fmt.Sprintf(
			"%s is an interactive wizard: start it with interaction.start, or pass every answer as arguments; missing: %s",
			w.Tool, strings.Join(missing, ", ")))}, IsError: true}, nil
	}
	o, _ := w.outcome(data)
	return &ToolResult{Content: []any{Text(o.Summary)},
		StructuredContent: map[string]any{"success": o.Success, "data": o.Data, "summary": o.Summary}}, nil
}
