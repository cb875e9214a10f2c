package wizardtest

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// FutureDate is a date the book_trip wizard accepts (a month ahead, UTC).
func FutureDate() string { return time.Now().UTC().AddDate(0, 1, 0).Format(time.DateOnly) }

// Start starts a session of tool and checks the seed's start result: idle,
// a first prompt of type want and progress 1 of total.
func (c *Client) StartWizard(tool string, want mcp.PromptType, total float64) mcp.InteractionStartResult {
	c.t.Helper()
	res := Result[mcp.InteractionStartResult](c.t, c.Call(mcp.MethodInteractionStart, mcp.InteractionStartParams{ToolName: tool}))
	if res.SessionID == "" || res.State != mcp.InteractionIdle || res.InitialPrompt == nil || res.InitialPrompt.Type != want ||
		res.Progress == nil || res.Progress.Current != 1 || res.Progress.Total != total || res.ExpiresAt == 0 {
		c.t.Fatalf("start of %s: %+v (prompt %+v)", tool, res, res.InitialPrompt)
	}
	return res
}

// Answer responds value, which must be accepted, then takes the next
// prompt (acknowledging it), which must be of type want at step current.
// It returns the prompt's params: their sessionId is the one to use next
// (a stateless server sends a new token with every prompt).
func (c *Client) Answer(sessionID string, value any, want mcp.PromptType, current float64) mcp.InteractionPromptParams {
	c.t.Helper()
	if r := Result[mcp.InteractionRespondResult](c.t, c.Respond(sessionID, value)); !r.Accepted {
		c.t.Fatalf("answer %v refused: %+v", value, r.Validation)
	}
	return c.TakePrompt(want, current)
}

// TakePrompt takes the next interaction.prompt, acknowledges it and checks
// its type and progress.
func (c *Client) TakePrompt(want mcp.PromptType, current float64) mcp.InteractionPromptParams {
	c.t.Helper()
	m := c.Expect(mcp.MethodInteractionPrompt)
	p := Params[mcp.InteractionPromptParams](c.t, m)
	c.Reply(m, mcp.InteractionAck{Acknowledged: true})
	if p.Prompt.Type != want || p.Progress == nil || p.Progress.Current != current || p.SessionID == "" {
		c.t.Fatalf("prompt %+v progress %+v, want %s at step %v", p.Prompt, p.Progress, want, current)
	}
	return p
}

// WalkBookTrip walks a book_trip wizard (tool names it: book_trip or
// book_trip_stateless) to its end: Oslo, business, a date in the past
// (refused, then prompted again with error and suggestion), a date ahead,
// 2 travellers, confirm. It checks getState before the last answer and
// returns the interaction.complete params.
func (c *Client) WalkBookTrip(tool string) mcp.InteractionCompleteParams {
	c.t.Helper()
	id := c.StartWizard(tool, mcp.PromptText, 5).SessionID
	id = c.Answer(id, "Oslo", mcp.PromptChoice, 2).SessionID
	id = c.Answer(id, "business", mcp.PromptDate, 3).SessionID
	r := Result[mcp.InteractionRespondResult](c.t, c.Respond(id, "2000-01-01"))
	if r.Accepted || r.Validation == nil || r.Validation.Valid || r.Validation.Error == "" || !strings.HasPrefix(r.Validation.Suggestion, "Use a date after ") {
		c.t.Fatalf("a date in the past: %+v %+v", r, r.Validation)
	}
	retry := c.TakePrompt(mcp.PromptDate, 3)
	if retry.Prompt.Error != r.Validation.Error || retry.Prompt.Suggestion != r.Validation.Suggestion {
		c.t.Fatalf("the retry prompt %+v does not carry the refusal %+v", retry.Prompt, r.Validation)
	}
	id = c.Answer(retry.SessionID, FutureDate(), mcp.PromptNumber, 4).SessionID
	confirm := c.Answer(id, 2, mcp.PromptConfirm, 5)
	if !strings.Contains(confirm.Prompt.Message, "Oslo") || string(confirm.Prompt.DefaultValue) != "true" {
		c.t.Fatalf("confirm prompt %+v", confirm.Prompt)
	}
	st := Result[mcp.InteractionStateResult](c.t, c.Call(mcp.MethodInteractionGetState, mcp.InteractionGetStateParams{SessionID: confirm.SessionID}))
	var data map[string]any
	_ = json.Unmarshal(st.AccumulatedData, &data)
	if st.State != mcp.InteractionWaitingUser || len(st.History) != 4 || data["destination"] != "Oslo" || data["travellers"] != 2.0 ||
		st.CurrentPrompt == nil || st.CurrentPrompt.Type != mcp.PromptConfirm || st.Metadata.ToolName != tool {
		c.t.Fatalf("getState before the last answer: %+v", st)
	}
	if r := Result[mcp.InteractionRespondResult](c.t, c.Respond(confirm.SessionID, true)); !r.Accepted {
		c.t.Fatalf("confirm refused: %+v", r.Validation)
	}
	m := c.Expect(mcp.MethodInteractionComplete)
	done := Params[mcp.InteractionCompleteParams](c.t, m)
	c.Reply(m, mcp.InteractionCompleteResult{Success: true, FinalResult: done.Result})
	var res struct {
		Success bool `json:"success"`
		Data    struct {
			BookingRef string `json:"bookingRef"`
		} `json:"data"`
	}
	if err := json.Unmarshal(done.Result, &res); err != nil || !res.Success || !strings.HasPrefix(res.Data.BookingRef, "BK-") ||
		!strings.Contains(done.Summary, "Oslo") || done.SessionID == "" {
		c.t.Fatalf("complete %+v (%s)", done, done.Result)
	}
	return done
}

// CancelBookTrip starts book_trip, answers the destination, cancels, and
// checks that the session then refuses an answer with -32006 and reports
// itself cancelled.
func (c *Client) CancelBookTrip() {
	c.t.Helper()
	id := c.StartWizard("book_trip", mcp.PromptText, 5).SessionID
	c.Answer(id, "Lima", mcp.PromptChoice, 2)
	res := Result[mcp.InteractionCancelResult](c.t, c.Call(mcp.MethodInteractionCancel, mcp.InteractionCancelParams{SessionID: id, Reason: "changed my mind"}))
	if !res.Cancelled {
		c.t.Fatalf("cancel: %+v", res)
	}
	if code := Code(c.t, c.Respond(id, "economy")); code != mcp.CodeAlreadyCancelled {
		c.t.Fatalf("respond after cancel: code %d, want %d", code, mcp.CodeAlreadyCancelled)
	}
	st := Result[mcp.InteractionStateResult](c.t, c.Call(mcp.MethodInteractionGetState, mcp.InteractionGetStateParams{SessionID: id}))
	if st.State != mcp.InteractionCancelled || len(st.History) != 0 {
		c.t.Fatalf("getState after cancel: %+v", st)
	}
}
