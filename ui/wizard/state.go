package wizard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
)

// Bounds of the state view.
const (
	maxStateTurns  = 500 // turns of the history shown; the rest are counted
	maxAnswerWidth = 200 // characters of one answer shown in the history
)

// wizardState is the view of interaction.getState: the session's state,
// metadata, history of turns and accumulated data as the server tells
// them, and for a stateless server the sessionId's token decoded (for
// display only: the client does not hold the key that signs it).
type wizardState struct {
	id  string        // the sessionId the state was asked with
	out *look.Outcome // the view's text, scrollable
}

// newWizardState opens the view while the answer is on its way.
func newWizardState(id string, st *look.Styles) *wizardState {
	body := st.Ink.Muted.Paint(mcp.MethodInteractionGetState+" sent, waiting for the answer…") + tokenSection(id, st)
	return &wizardState{id: id, out: &look.Outcome{Heading: mcp.MethodInteractionGetState, Body: body}}
}

// arrived shows the answer, or the error by its name.
func (s *wizardState) arrived(res mcp.InteractionStateResult, err error, st *look.Styles) {
	var b strings.Builder
	if err != nil {
		b.WriteString(st.Ink.Error.Paint(mcp.MethodInteractionGetState + " failed: " + look.ErrorHeadline(err, mcp.DialectInteraction)))
	} else {
		writeStateResult(&b, res, st)
	}
	b.WriteString(tokenSection(s.id, st))
	s.out = &look.Outcome{Heading: mcp.MethodInteractionGetState, Body: b.String()}
}

// writeStateResult writes the state, the metadata, the current prompt,
// the history and the accumulated data.
func writeStateResult(b *strings.Builder, res mcp.InteractionStateResult, st *look.Styles) {
	row := func(label, value string) {
		fmt.Fprintf(b, "%s %s\n", st.Ink.Muted.Paint(fmt.Sprintf("%-14s", label)), look.OneLine(value))
	}
	row("state", string(res.State))
	row("sessionId", stateSessionID(res.SessionID))
	row("tool", res.Metadata.ToolName)
	row("created", stateTime(res.Metadata.CreatedAt))
	row("last activity", stateTime(res.Metadata.LastActivityAt))
	if p := res.CurrentPrompt; p != nil {
		row("current prompt", fmt.Sprintf("%s (%s)", p.Message, p.Type))
	}
	turns := "turns"
	if len(res.History) == 1 {
		turns = "turn"
	}
	fmt.Fprintf(b, "\n%s\n", st.Ink.Muted.Paint(fmt.Sprintf("── history · %d %s ──", len(res.History), turns)))
	for i, t := range res.History {
		if i == maxStateTurns {
			fmt.Fprintf(b, "  … %s\n", plural.Count(len(res.History)-i, "more turn", "more turns"))
			break
		}
		fmt.Fprintf(b, "  %s %s → %s\n", st.Ink.Muted.Paint(fmt.Sprintf("#%d", t.TurnID)), turnPrompt(t.Prompt), turnAnswer(t.Response))
	}
	fmt.Fprintf(b, "\n%s\n", st.Ink.Muted.Paint("── accumulatedData ──"))
	data := res.AccumulatedData
	if len(data) == 0 {
		data = json.RawMessage("null")
	}
	b.WriteString(look.PrettyHighlighted(data, st))
}

// tokenSection decodes a stateless server's sessionId (seed 002,
// Appendix B); "" for an opaque id.
func tokenSection(id string, st *look.Styles) string {
	tok, ok := mcp.DecodeSessionToken(id)
	if !ok {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n\n%s\n", st.Ink.Muted.Paint("── token · the sessionId is a signed token (stateless server), decoded for display ──"))
	fmt.Fprintf(&b, "%s %s\n", st.Ink.Muted.Paint(fmt.Sprintf("%-14s", "sessionId")), look.OneLine(tok.SessionID))
	fmt.Fprintf(&b, "%s %s %s\n", st.Ink.Muted.Paint(fmt.Sprintf("%-14s", "signature")), look.OneLine(tok.Signature),
		st.Ink.Warn.Paint("(not verified by the client)"))
	fmt.Fprintf(&b, "%s\n", st.Ink.Muted.Paint("state"))
	state := tok.State
	if len(state) == 0 {
		state = json.RawMessage("null")
	}
	b.WriteString(look.PrettyHighlighted(state, st))
	return b.String()
}

// stateSessionID shows a sessionId in full, or a token by the id it
// carries (the token is decoded below).
func stateSessionID(id string) string {
	if tok, ok := mcp.DecodeSessionToken(id); ok {
		return tok.SessionID + " (signed token, decoded below)"
	}
	return id
}

// stateTime renders a time in milliseconds since the epoch, in UTC.
func stateTime(ms int64) string {
	if ms <= 0 {
		return "–"
	}
	return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000Z")
}

// turnPrompt is the message of a turn's prompt, or its JSON.
func turnPrompt(raw json.RawMessage) string {
	var p mcp.InteractionPrompt
	if json.Unmarshal(raw, &p) == nil && p.Message != "" {
		return look.OneLine(p.Message)
	}
	return compactJSON(raw)
}

// turnAnswer is the value of a turn's response, or its JSON.
func turnAnswer(raw json.RawMessage) string {
	var r mcp.InteractionResponse
	if json.Unmarshal(raw, &r) == nil && len(r.Value) > 0 {
		return compactJSON(r.Value)
	}
	return compactJSON(raw)
}

// compactJSON is raw on one line, cut to maxAnswerWidth characters.
func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	s := string(raw)
	if json.Compact(&b, raw) == nil {
		s = b.String()
	}
	s = look.OneLine(s)
	if r := []rune(s); len(r) > maxAnswerWidth {
		s = string(r[:maxAnswerWidth]) + "…"
	}
	return s
}
