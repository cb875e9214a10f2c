package demo

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/demo/internal/wizardtest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// `capabilities` answers the seed's discovery object, and the initialize
// result carries capabilities.interactive too.
func TestInteractiveCapabilities(t *testing.T) {
	c, _ := coreClient(t, newTestServer(t))
	caps := wizardtest.Result[mcp.InteractiveCapabilities](t, c.Call(mcp.MethodCapabilities, nil))
	want := map[string]bool{"statefulSessions": true, "progressTracking": true, "validation": true, "multiplePromptTypes": true, "sessionPersistence": false}
	if !caps.Interactive || caps.Version != "0.1.0" || len(caps.Features) != len(want) {
		t.Fatalf("capabilities: %+v", caps)
	}
	for k, v := range want {
		if f, ok := caps.Features[k]; !ok || f != v {
			t.Errorf("feature %s = %v, want %v", k, f, v)
		}
	}
	init := c.Call(mcp.MethodInitialize, map[string]any{"protocolVersion": mcp.LatestLegacy})
	var res struct {
		Capabilities struct {
			Interactive mcp.InteractiveCapabilities `json:"interactive"`
			Tools       json.RawMessage             `json:"tools"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(init.Result, &res); err != nil || res.Capabilities.Interactive.Version != "0.1.0" ||
		!res.Capabilities.Interactive.Features["validation"] || res.Capabilities.Tools == nil {
		t.Errorf("initialize result %s: %v", init.Result, err)
	}
}

// book_trip walks the seed's wizard: five prompts with progress, a date in
// the past refused and prompted again, getState along the way, completion;
// the ended session keeps its state but no answers.
func TestBookTripWizard(t *testing.T) {
	c, p := coreClient(t, newTestServer(t))
	done := c.WalkBookTrip("book_trip")
	st := getState(t, c, done.SessionID)
	if st.State != mcp.InteractionCompleted || len(st.History) != 0 || string(st.AccumulatedData) != "{}" || st.CurrentPrompt != nil {
		t.Errorf("getState after completion: %+v", st)
	}
	if code := wizardtest.Code(t, c.Respond(done.SessionID, true)); code != mcp.CodeInvalidStateTransition {
		t.Errorf("respond after completion: code %d", code)
	}
	if code := wizardtest.Code(t, cancelSession(c, done.SessionID)); code != mcp.CodeInvalidStateTransition {
		t.Errorf("cancel after completion: code %d", code)
	}
	if id := done.SessionID; !strings.HasPrefix(id, "session_") || len(id) < len("session_")+26 {
		t.Errorf("session id %q is not a random id", id)
	}
	p.c.requests.mu.Lock()
	n := len(p.c.requests.awaiting)
	p.c.requests.mu.Unlock()
	if n != 0 {
		t.Errorf("%d server requests still await an answer", n)
	}
}

// Declining the confirmation completes with success false.
func TestBookTripDeclined(t *testing.T) {
	c, _ := coreClient(t, newTestServer(t))
	id := c.StartWizard("book_trip", mcp.PromptText, 5).SessionID
	c.Answer(id, "Rome", mcp.PromptChoice, 2)
	c.Answer(id, "economy", mcp.PromptDate, 3)
	c.Answer(id, wizardtest.FutureDate(), mcp.PromptNumber, 4)
	c.Answer(id, 1, mcp.PromptConfirm, 5)
	if r := wizardtest.Result[mcp.InteractionRespondResult](t, c.Respond(id, false)); !r.Accepted {
		t.Fatalf("declining refused: %+v", r)
	}
	done := wizardtest.Params[mcp.InteractionCompleteParams](t, c.Expect(mcp.MethodInteractionComplete))
	if !strings.Contains(string(done.Result), `"success":false`) || !strings.Contains(done.Summary, "declined") {
		t.Errorf("declined booking: %s %q", done.Result, done.Summary)
	}
}

// Cancelling cleans the session up; it then answers -32006.
func TestCancelBookTrip(t *testing.T) {
	c, p := coreClient(t, newTestServer(t))
	c.CancelBookTrip()
	if code := wizardtest.Code(t, c.Call(mcp.MethodInteractionCancel, map[string]string{"sessionId": firstSessionID(p.c)})); code != mcp.CodeAlreadyCancelled {
		t.Errorf("second cancel: code %d", code)
	}
}

// firstSessionID returns the id of one stored session.
func firstSessionID(c *Conn) string {
	c.sessions.mu.Lock()
	defer c.sessions.mu.Unlock()
	for id := range c.sessions.byID {
		return id
	}
	return ""
}

// register_user is the seed's "Multi-turn Wizard" with its "Validation
// Retry": an invalid email is refused, prompted again with the error, and
// the valid one completes.
func TestRegisterUserValidationRetry(t *testing.T) {
	c, _ := coreClient(t, newTestServer(t))
	start := c.StartWizard("register_user", mcp.PromptText, 2)
	if start.InitialPrompt.Message != "Enter name" {
		t.Errorf("first prompt %+v", start.InitialPrompt)
	}
	email := c.Answer(start.SessionID, "John", mcp.PromptText, 2)
	r := wizardtest.Result[mcp.InteractionRespondResult](t, c.Respond(start.SessionID, "invalid-email"))
	if r.Accepted || r.Validation == nil || r.Validation.Suggestion != "Use the form name@example.com" {
		t.Fatalf("invalid email: %+v", r)
	}
	retry := c.TakePrompt(mcp.PromptText, 2)
	if retry.Prompt.Message != email.Prompt.Message || retry.Prompt.Error == "" || retry.Prompt.Suggestion == "" {
		t.Errorf("retry prompt %+v", retry.Prompt)
	}
	if r := wizardtest.Result[mcp.InteractionRespondResult](t, c.Respond(start.SessionID, "john@example.com")); !r.Accepted {
		t.Fatalf("valid email refused: %+v", r)
	}
	done := wizardtest.Params[mcp.InteractionCompleteParams](t, c.Expect(mcp.MethodInteractionComplete))
	if !strings.Contains(string(done.Result), `"email":"john@example.com"`) || !strings.Contains(done.Summary, "John") {
		t.Errorf("complete %s %q", done.Result, done.Summary)
	}
}

// upload_report takes a file's content in base64 and reports its sha256;
// a file of another kind and a lying size are refused.
func TestUploadReport(t *testing.T) {
	c, _ := coreClient(t, newTestServer(t))
	start := c.StartWizard("upload_report", mcp.PromptFile, 1)
	if strings.Join(start.InitialPrompt.Accept, " ") != ".csv .json .txt" {
		t.Errorf("accept %v", start.InitialPrompt.Accept)
	}
	body := []byte("a,b\n1,2\n")
	content := base64.StdEncoding.EncodeToString(body)
	for _, bad := range []map[string]any{
		{"name": "report.exe", "size": len(body), "content": content},
		{"name": "report.csv", "size": len(body) + 1, "content": content},
		{"name": "report.csv", "content": "%%%"},
		{"content": content},
	} {
		if r := wizardtest.Result[mcp.InteractionRespondResult](t, c.Respond(start.SessionID, bad)); r.Accepted {
			t.Errorf("%v accepted", bad)
		}
		c.TakePrompt(mcp.PromptFile, 1)
	}
	c.Respond(start.SessionID, map[string]any{"name": "Report.CSV", "size": len(body), "content": content})
	done := wizardtest.Params[mcp.InteractionCompleteParams](t, c.Expect(mcp.MethodInteractionComplete))
	sum := sha256.Sum256(body)
	if !strings.Contains(string(done.Result), hex.EncodeToString(sum[:])) || !strings.Contains(done.Summary, "8 bytes") {
		t.Errorf("complete %s %q", done.Result, done.Summary)
	}
}
