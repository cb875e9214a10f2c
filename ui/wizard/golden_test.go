package wizard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
)

// goldenWizard is a wizard of the scripted server's greet tool, started
// and showing its first prompt, with the clock at t0 (4m30s before the
// session expires).
func goldenWizard(t *testing.T) (*Model, *Wizard) {
	t.Helper()
	m, r, _ := scriptedModel(t, true)
	wiz := openToolWizard(t, r, m, "greet")
	return m, wiz
}

// num is a pointer to a validation bound.
func num(f float64) *float64 { return &f }

// choices are the options of a choice prompt.
func choices(pairs ...string) []mcp.PromptChoiceItem {
	var out []mcp.PromptChoiceItem
	for i := 0; i+1 < len(pairs); i += 2 {
		v, _ := json.Marshal(pairs[i])
		out = append(out, mcp.PromptChoiceItem{Value: v, Label: pairs[i+1]})
	}
	return out
}

// TestGoldenWizardWidgets draws the wizard with a prompt of each type,
// under the progress and the countdown.
func TestGoldenWizardWidgets(t *testing.T) {
	_, wiz := goldenWizard(t)
	goldentest.CheckPlain(t, "wizard_text", wiz.Render(80, 12))

	dir := t.TempDir()
	for name, body := range map[string]string{"q3.csv": "a,b\n", "notes.txt": "hello", "logo.png": "png"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wiz.dir = dir
	wiz.setProgress(mcp.InteractionProgress{Current: 3, Total: 5, Message: "Step 3 of 5"})
	prompts := []struct {
		name string
		p    mcp.InteractionPrompt
	}{
		{"wizard_choice", mcp.InteractionPrompt{Type: mcp.PromptChoice, Message: "Which class?",
			Choices: choices("economy", "Economy", "premium", "Premium economy", "business", "Business"), DefaultValue: json.RawMessage(`"premium"`)}},
		{"wizard_confirm", mcp.InteractionPrompt{Type: mcp.PromptConfirm, Message: "Book the trip?", DefaultValue: json.RawMessage("true")}},
		{"wizard_number", mcp.InteractionPrompt{Type: mcp.PromptNumber, Message: "How many travellers?", Format: "integer",
			DefaultValue: json.RawMessage("1"), Validation: &mcp.PromptValidation{Required: true, Min: num(1), Max: num(9)}}},
		{"wizard_date", mcp.InteractionPrompt{Type: mcp.PromptDate, Message: "When do you leave?", Validation: &mcp.PromptValidation{Required: true}}},
		{"wizard_file", mcp.InteractionPrompt{Type: mcp.PromptFile, Message: "Choose the report to upload", Accept: []string{".csv", ".txt"}}},
		{"wizard_custom", mcp.InteractionPrompt{Type: mcp.PromptCustom, Message: "Seat preferences",
			Schema: json.RawMessage(`{"type":"object","properties":{"window":{"type":"boolean"}},"required":["window"]}`)}},
		{"wizard_unknown_type", mcp.InteractionPrompt{Type: "slider", Message: "How loud?"}},
	}
	for _, c := range prompts {
		p := c.p
		wiz.showPrompt(&p)
		goldentest.CheckPlain(t, c.name, wiz.Render(80, 16))
	}
}

// TestGoldenWizardRefusal draws a server's refusal at the widget, and the
// answer in flight.
func TestGoldenWizardRefusal(t *testing.T) {
	_, wiz := goldenWizard(t)
	for _, r := range "Bob" {
		wiz.Update(keytest.Press(string(r)))
	}
	wiz.phase = wizSending
	goldentest.CheckPlain(t, "wizard_sending", wiz.Render(80, 10))
	wiz.responded(wizardRespondedMsg{it: wiz.it, seq: wiz.seq, res: mcp.InteractionRespondResult{
		Validation: &mcp.InteractionValidation{Error: "Bob is taken", Suggestion: "Try Bob2 or Robert"}}})
	goldentest.CheckPlain(t, "wizard_refusal", wiz.Render(80, 10))
}

// TestGoldenWizardWarningAndNotes draws a timeout warning and an illegal
// transition's notice.
func TestGoldenWizardWarningAndNotes(t *testing.T) {
	m, r, p := scriptedModel(t, true)
	wiz := openToolWizard(t, r, m, "greet")
	p.ServerRequest(t, mcp.MethodInteractionContinue, mcp.InteractionContinueParams{SessionID: screentest.FakeSessionID,
		Message: "session expires in 10 s", ExpiresAt: t0.Add(9500 * time.Millisecond).UnixMilli()})
	p.ServerRequest(t, mcp.MethodInteractionComplete, mcp.InteractionCompleteParams{SessionID: screentest.FakeSessionID})
	r.Until("the warning and the notice", func() bool { return wiz.message != "" && len(wiz.notes) == 1 })
	goldentest.CheckPlain(t, "wizard_warning", wiz.Render(130, 10))
}

// TestGoldenWizardEnds draws a completion, a cancellation and an error.
func TestGoldenWizardEnds(t *testing.T) {
	_, wiz := goldenWizard(t)
	wiz.event(wizardEventMsg{it: wiz.it, ok: true, ev: client.InteractionEvent{Kind: client.EventComplete,
		Complete: &mcp.InteractionCompleteParams{SessionID: screentest.FakeSessionID, Summary: "Booked business to Oslo: BK-1C7A92",
			Result: json.RawMessage(`{"success":true,"data":{"bookingRef":"BK-1C7A92","trip":{"destination":"Oslo"}}}`)}}})
	goldentest.CheckPlain(t, "wizard_complete", wiz.Render(80, 14))

	_, wiz = goldenWizard(t)
	wiz.ended(mcp.InteractionCancelled, nil)
	wiz.cancelled(wizardCancelledMsg{it: wiz.it})
	goldentest.CheckPlain(t, "wizard_cancelled", wiz.Render(80, 8))

	_, wiz = goldenWizard(t)
	wiz.ended(mcp.InteractionError, &client.RPCError{Method: mcp.MethodInteractionRespond,
		Err: &jsonrpc.Error{Code: mcp.CodeSessionExpired, Message: "Session expired", Data: json.RawMessage(`{"sessionId":"session_abc123"}`)}})
	goldentest.CheckPlain(t, "wizard_error", wiz.Render(80, 12))
}

// TestGoldenWizardState draws the interaction.getState view of a
// stateless session: the answer and the decoded token.
func TestGoldenWizardState(t *testing.T) {
	_, wiz := goldenWizard(t)
	state := map[string]any{"tool": "book_trip_stateless", "step": 1, "data": map[string]string{"destination": "Oslo"}}
	token, err := mcp.SignSessionToken("session_7KSJQ2", state, []byte("test key"))
	if err != nil {
		t.Fatal(err)
	}
	wiz.state = newWizardState(token, wiz.st)
	goldentest.CheckPlain(t, "wizard_state_asking", wiz.Render(100, 12))
	turn := func(id int, prompt, resp string) mcp.InteractionTurn {
		return mcp.InteractionTurn{TurnID: id, Prompt: json.RawMessage(prompt), Response: json.RawMessage(resp), Timestamp: t0.UnixMilli()}
	}
	res := mcp.InteractionStateResult{SessionID: token, State: mcp.InteractionWaitingUser,
		Metadata:        mcp.InteractionMetadata{CreatedAt: t0.UnixMilli(), LastActivityAt: t0.UnixMilli() + 65000, ToolName: "book_trip_stateless"},
		History:         []mcp.InteractionTurn{turn(0, `{"type":"text","message":"Where do you want to go?"}`, `{"value":"Oslo","timestamp":1}`), turn(1, `"odd"`, `{}`)},
		CurrentPrompt:   &mcp.InteractionPrompt{Type: mcp.PromptChoice, Message: "Which class?"},
		AccumulatedData: json.RawMessage(`{"destination":"Oslo"}`)}
	wiz.stateArrived(wizardStateMsg{it: wiz.it, id: token, res: res})
	wiz.state.out.SetSize(100, 40)
	goldentest.CheckPlain(t, "wizard_state", wiz.state.out.Render(100, 40))
}

// FuzzWizardState renders the state view of any interaction.getState
// answer and any sessionId (a token or not) without panicking.
func FuzzWizardState(f *testing.F) {
	f.Add([]byte(`{"sessionId":"s","state":"waiting_user","history":[{"turnId":0,"prompt":{"message":"m"},"response":{"value":1}}],"accumulatedData":{"a":1}}`), "s")
	f.Add([]byte(`{"history":[{"prompt":"x","response":null}],"currentPrompt":{"type":"file"}}`), "eyJzZXNzaW9uSWQiOiJ4Iiwic3RhdGUiOjEsInNpZ25hdHVyZSI6IiJ9")
	st := look.NewStyles(true)
	f.Fuzz(func(t *testing.T, raw []byte, id string) {
		var res mcp.InteractionStateResult
		if json.Unmarshal(raw, &res) != nil {
			return
		}
		s := newWizardState(id, &st)
		s.arrived(res, nil, &st)
		_ = s.out.Render(60, 20)
		_ = sessionLabel(id)
	})
}
