package demo

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/demo/internal/wizardtest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Unknown ids are -32001; a start that names no tool, a tool that is not
// interactive, bad params, timeouts or initialParams are -32602 or -32007.
func TestInteractionRequestErrors(t *testing.T) {
	c, _ := coreClient(t, newTestServer(t))
	for _, tc := range []struct {
		method string
		params any
		want   int
	}{
		{mcp.MethodInteractionRespond, map[string]any{"sessionId": "session_nope", "response": map[string]any{"value": 1}}, mcp.CodeSessionNotFound},
		{mcp.MethodInteractionGetState, map[string]any{"sessionId": "session_nope"}, mcp.CodeSessionNotFound},
		{mcp.MethodInteractionCancel, map[string]any{"sessionId": "c2Vzc2lvbl9ub3Bl"}, mcp.CodeSessionNotFound},
		{mcp.MethodInteractionStart, map[string]any{"toolName": "no_such_tool"}, mcp.CodeInvalidParams},
		{mcp.MethodInteractionStart, map[string]any{"toolName": "echo"}, mcp.CodeNotInteractive},
		{mcp.MethodInteractionStart, map[string]any{}, mcp.CodeInvalidParams},
		{mcp.MethodInteractionStart, []int{1}, mcp.CodeInvalidParams},
		{mcp.MethodInteractionStart, map[string]any{"toolName": "book_trip", "timeout": -5}, mcp.CodeInvalidParams},
		{mcp.MethodInteractionStart, map[string]any{"toolName": "book_trip", "timeout": 1 << 40}, mcp.CodeInvalidParams},
		{mcp.MethodInteractionStart, map[string]any{"toolName": "book_trip", "initialParams": "Oslo"}, mcp.CodeInvalidParams},
		{mcp.MethodInteractionStart, map[string]any{"toolName": "book_trip", "initialParams": map[string]any{"destination": "0"}}, mcp.CodeInvalidParams},
		{mcp.MethodInteractionStart, map[string]any{"toolName": "book_trip", "initialParams": map[string]any{"nope": 1}}, mcp.CodeInvalidParams},
		{mcp.MethodInteractionRespond, map[string]any{"response": map[string]any{"value": 1}}, mcp.CodeInvalidParams},
		{mcp.MethodInteractionGetState, map[string]any{"sessionId": ""}, mcp.CodeInvalidParams},
	} {
		m := c.Call(tc.method, tc.params)
		if m.Error == nil || m.Error.Code != tc.want {
			t.Errorf("%s %v: %+v %s, want code %d", tc.method, tc.params, m.Error, m.Result, tc.want)
		}
	}
}

// A session is processing while its wizard works on the last answer: an
// answer then is -32003, and so is one after completion.
func TestRespondWhileProcessing(t *testing.T) {
	s := newTestServer(t)
	gate := make(chan struct{})
	err := s.registerWizard(&wizard{Tool: "slow", Description: "waits for the test",
		Steps: []wizardStep{{Key: "x", Prompt: mcp.InteractionPrompt{Type: mcp.PromptText, Message: "x?"}}},
		Finish: func(map[string]json.RawMessage) wizardOutcome {
			<-gate
			return wizardOutcome{Success: true, Summary: "done"}
		}})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := coreClient(t, s)
	var once sync.Once
	release := func() { once.Do(func() { close(gate) }) }
	t.Cleanup(release) // runs before the connection closes
	id := c.StartWizard("slow", mcp.PromptText, 1).SessionID
	if r := wizardtest.Result[mcp.InteractionRespondResult](t, c.Respond(id, "a")); !r.Accepted {
		t.Fatalf("refused: %+v", r)
	}
	if st := getState(t, c, id); st.State != mcp.InteractionProcessing || st.CurrentPrompt != nil {
		t.Fatalf("state while the wizard works: %+v", st)
	}
	m := c.Respond(id, "b")
	if code := wizardtest.Code(t, m); code != mcp.CodeInvalidStateTransition || !strings.Contains(m.Error.Message, "processing") {
		t.Errorf("respond while processing: %+v", m.Error)
	}
	release()
	c.Expect(mcp.MethodInteractionComplete)
	if code := wizardtest.Code(t, c.Respond(id, "c")); code != mcp.CodeInvalidStateTransition {
		t.Errorf("respond after completion: code %d", code)
	}
}

// A value of initialParams becomes the prompt's default; an empty answer
// then takes it.
func TestInitialParamsAreDefaults(t *testing.T) {
	c, _ := coreClient(t, newTestServer(t))
	start := startSession(t, c, mcp.InteractionStartParams{ToolName: "book_trip", InitialParams: json.RawMessage(`{"destination":"Paris","class":"premium"}`)})
	if string(start.InitialPrompt.DefaultValue) != `"Paris"` {
		t.Fatalf("first prompt %+v", start.InitialPrompt)
	}
	p := c.Answer(start.SessionID, nil, mcp.PromptChoice, 2)
	if string(p.Prompt.DefaultValue) != `"premium"` {
		t.Errorf("class prompt default %s", p.Prompt.DefaultValue)
	}
	if st := getState(t, c, start.SessionID); !strings.Contains(string(st.AccumulatedData), `"destination":"Paris"`) {
		t.Errorf("accumulatedData %s", st.AccumulatedData)
	}
}

// Past maxRefusals refused answers the session ends in error with -32004.
func TestTooManyRefusals(t *testing.T) {
	c, _ := coreClient(t, newTestServer(t))
	id := c.StartWizard("register_user", mcp.PromptText, 2).SessionID
	for i := 0; i < maxRefusals; i++ {
		if r := wizardtest.Result[mcp.InteractionRespondResult](t, c.Respond(id, "")); r.Accepted || r.Validation.Error == "" {
			t.Fatalf("refusal %d: %+v", i, r)
		}
		c.TakePrompt(mcp.PromptText, 1)
	}
	if code := wizardtest.Code(t, c.Respond(id, "")); code != mcp.CodeValidationFailed {
		t.Errorf("refusal past the limit: code %d", code)
	}
	if st := getState(t, c, id); st.State != mcp.InteractionError {
		t.Errorf("state %s", st.State)
	}
}

// A client that refuses interaction.prompt (no interactive support) puts
// the session in error; an answer then is -32003.
func TestPromptRefusedByClient(t *testing.T) {
	c, _ := coreClient(t, newTestServer(t))
	id := c.StartWizard("register_user", mcp.PromptText, 2).SessionID
	c.Respond(id, "John")
	c.ReplyError(c.Expect(mcp.MethodInteractionPrompt), mcp.CodeMethodNotFound, "no interactive support")
	waitState(t, c, id, mcp.InteractionError)
	if code := wizardtest.Code(t, c.Respond(id, "john@example.com")); code != mcp.CodeInvalidStateTransition {
		t.Errorf("respond in error: code %d", code)
	}
}

// The seed's table governs every move the server makes.
func TestSessionStateMoves(t *testing.T) {
	st := &sessionState{}
	for _, next := range []mcp.InteractionState{mcp.InteractionIdle, mcp.InteractionActive, mcp.InteractionWaitingUser,
		mcp.InteractionProcessing, mcp.InteractionWaitingUser, mcp.InteractionProcessing, mcp.InteractionCompleted} {
		if rerr := st.moveTo("s", next); rerr != nil {
			t.Fatalf("→ %s: %v", next, rerr)
		}
	}
	if rerr := st.moveTo("s", mcp.InteractionCancelled); rerr == nil || rerr.Code != mcp.CodeInvalidStateTransition {
		t.Errorf("completed → cancelled: %v", rerr)
	}
	if rerr := (&sessionState{State: mcp.InteractionActive}).moveTo("s", mcp.InteractionCompleted); rerr == nil {
		t.Error("active → completed allowed")
	}
}
