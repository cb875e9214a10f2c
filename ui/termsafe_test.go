package ui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/goldentest"
	"github.com/mcpscope/mcpscope/proto"

	"github.com/mcpscope/mcpscope/ui/look"
)

// hostile is server text that would retitle the window, write the
// clipboard, clear the screen and reorder the line if it reached the
// terminal raw; hostileShown is how it must appear instead.
const (
	hostile      = "x\x1b]0;PWNED\x07\x1b]52;c;SGVsbG8=\x07\x1b[2J\u009b31m\u202e"
	hostileShown = `x\x1b]0;PWNED\x07\x1b]52;c;SGVsbG8=\x07\x1b[2J\u009b31m\u202e`
)

// assertSafeView fails when a drawn screen holds what only the server's
// text could have put there: a BEL, an OSC, a screen clear, a C1 control
// or a bidi override; and when the hostile text is not shown escaped.
func assertSafeView(t *testing.T, what, view string) {
	t.Helper()
	for _, raw := range []string{"\x07", "\x1b]", "\x1b[2J", "\u009b", "\u202e"} {
		if i := strings.Index(view, raw); i >= 0 {
			t.Errorf("%s: raw %q at byte %d: %q", what, raw, i, view[max(i-60, 0):min(i+60, len(view))])
		}
	}
	if !strings.Contains(view, `\x1b]0;PWNED\x07`) {
		t.Errorf("%s: the hostile text is not shown escaped:\n%s", what, view)
	}
}

// hostileStore holds frames whose every server text is hostile: a request
// and a notification named by it, an error answer, a stderr line, a
// progress and a log datagram.
func hostileStore(t *testing.T) *capture.Store {
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	st.Append(controlFrame(t, capture.Out, c.next(), proto.EncJSON, request(t, 1, "tools/call", map[string]any{"name": "x"})))
	st.Append(controlFrame(t, capture.In, c.next(), proto.EncJSON, proto.NewErrorResponse(proto.IntID(1), -32000, hostile, nil)))
	st.Append(controlFrame(t, capture.In, c.next(), proto.EncJSON, notification(t, "notifications/"+hostile, nil)))
	st.Append(controlFrame(t, capture.In, c.next(), proto.EncJSON, request(t, 7, hostile, nil)))
	st.Append(stderrFrame(c.next(), "stderr "+hostile))
	st.Append(datagramFrame(t, c.next(), proto.ChannelProgress, 1,
		encode(t, proto.EncJSON, proto.ProgressDatagram{Progress: 1, Total: 2, Message: hostile}), proto.EncJSON))
	data, _ := json.Marshal(hostile)
	st.Append(datagramFrame(t, c.next(), proto.ChannelLog, 1,
		encode(t, proto.EncJSON, proto.LogDatagram{Level: hostile, Logger: hostile, Data: data}), proto.EncJSON))
	return st
}

// The traffic rows, the stderr pane, the datagram log and the status bar's
// last error show a hostile server's text escaped. (The window is too
// narrow for the split layout: the detail pane, which shows the frames'
// JSON, is not part of this test.)
func TestHostileTextInPanesIsEscaped(t *testing.T) {
	m := newTestModel(t, hostileStore(t), splitMinWidth-1, 40)
	assertSafeView(t, "traffic", m.View().Content)
	m.Update(ErrorMsg{Err: errors.New("the server said: " + hostile)})
	view := m.View().Content
	assertSafeView(t, "status bar", view)
	if !strings.Contains(goldentest.Plain(view), "the server said: "+hostileShown[:20]) {
		t.Errorf("the status bar lacks the last error:\n%s", goldentest.Plain(view))
	}
	for _, p := range []paneID{paneStderr, paneDatagrams} {
		m.setFocus(p)
		assertSafeView(t, paneNames[p], m.View().Content)
	}
}

// A JSON-RPC error answer shown as an outcome, with its message escaped.
func TestHostileOutcomeIsEscaped(t *testing.T) {
	m := newTestModel(t, capture.NewStore(capture.Config{}), 100, 30)
	err := &client.RPCError{Method: "tools/call", Err: &proto.Error{Code: -32000, Message: hostile + "\nsecond line"}}
	o := look.NewOutcome("tools/call", nil, err, proto.DialectMCP, m.styles)
	assertSafeView(t, "error outcome", o.Render(100, 20))
	res := json.RawMessage(`{"content":[{"type":"text","text":` + mustJSON(t, hostile) + `},{"type":"resource_link","uri":` + mustJSON(t, hostile) + `,"name":"n"}]}`)
	o = look.NewOutcome("tools/call", res, nil, proto.DialectMCP, m.styles)
	assertSafeView(t, "result outcome", strings.SplitN(o.Render(100, 40), "── result JSON ──", 2)[0])
}

// A wizard shows the prompt's message, its options and the server's
// interaction message escaped.
func TestHostileWizardPromptIsEscaped(t *testing.T) {
	m := newTestModel(t, capture.NewStore(capture.Config{}), 120, 40)
	w := newWizard(driver{m}, "tool "+hostile)
	w.clock = func() time.Time { return t0 }
	w.message = "continue: " + hostile
	w.showPrompt(&proto.InteractionPrompt{Type: proto.PromptChoice, Message: "Pick " + hostile, Choices: []proto.PromptChoiceItem{
		{Value: json.RawMessage(`"a"`), Label: "A " + hostile, Description: "about " + hostile},
		{Value: json.RawMessage(mustJSON(t, hostile))},
	}})
	m.openOverlay(w)
	assertSafeView(t, "wizard choice", m.View().Content)
	w.showPrompt(&proto.InteractionPrompt{Type: proto.PromptText, Message: "Name " + hostile, Placeholder: "e.g. " + hostile})
	assertSafeView(t, "wizard text", m.View().Content)
}

// An elicitation's message (form and URL mode) and a sampling request's
// texts are shown escaped.
func TestHostileQuestionsAreEscaped(t *testing.T) {
	cases := map[string]struct{ method, params string }{
		"form elicitation": {proto.MethodElicitationCreate, `{"message":` + mustJSON(t, hostile) + `,"requestedSchema":` + formSchema + `}`},
		"url elicitation": {proto.MethodElicitationCreate, `{"mode":"url","message":` + mustJSON(t, hostile) +
			`,"elicitationId":` + mustJSON(t, hostile) + `,"url":` + mustJSON(t, "https://example.com/"+hostile) + `}`},
		"sampling": {proto.MethodSamplingCreateMessage, `{"systemPrompt":` + mustJSON(t, hostile) +
			`,"messages":[{"role":` + mustJSON(t, hostile) + `,"content":{"type":"text","text":` + mustJSON(t, hostile) + `}}],"maxTokens":5}`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			m, r, b := questionModel(t, nil, 120, 40)
			ask(t, r, b, context.Background(), c.method, c.params)
			assertSafeView(t, name, m.View().Content)
		})
	}
}

// A frame mcpscope could not write is labelled a write failure, not a
// decode error.
func TestFailedWriteLabel(t *testing.T) {
	f := &capture.Frame{Dir: capture.Out, Chan: capture.Channel{Kind: capture.Control},
		Err: errors.New("the notification notifications/initialized above was not sent whole: broken pipe")}
	label, bad := frameLabel(f, newIndex(), proto.DialectMCP)
	if label != "write failed: the notification notifications/initialized above was not sent whole: broken pipe" || !bad {
		t.Errorf("label %q, bad %v", label, bad)
	}
}
