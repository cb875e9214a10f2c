package ui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/asktest"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
)

// hostileStore holds frames whose every server text is hostile: a request
// and a notification named by it, an error answer, a stderr line, a
// progress and a log datagram.
func hostileStore(t *testing.T) *capture.Store {
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	st.Append(controlFrame(t, capture.Out, c.next(), proto.EncJSON, request(t, 1, "tools/call", map[string]any{"name": "x"})))
	st.Append(controlFrame(t, capture.In, c.next(), proto.EncJSON, jsonrpc.NewErrorResponse(jsonrpc.IntID(1), -32000, screentest.Hostile, nil)))
	st.Append(controlFrame(t, capture.In, c.next(), proto.EncJSON, notification(t, "notifications/"+screentest.Hostile, nil)))
	st.Append(controlFrame(t, capture.In, c.next(), proto.EncJSON, request(t, 7, screentest.Hostile, nil)))
	st.Append(stderrFrame(c.next(), "stderr "+screentest.Hostile))
	st.Append(datagramFrame(t, c.next(), flow.ChannelProgress, 1,
		encode(t, proto.EncJSON, flow.ProgressDatagram{Progress: 1, Total: 2, Message: screentest.Hostile}), proto.EncJSON))
	data, _ := json.Marshal(screentest.Hostile)
	st.Append(datagramFrame(t, c.next(), flow.ChannelLog, 1,
		encode(t, proto.EncJSON, flow.LogDatagram{Level: screentest.Hostile, Logger: screentest.Hostile, Data: data}), proto.EncJSON))
	return st
}

// The traffic rows, the stderr pane, the datagram log and the status bar's
// last error show a hostile server's text escaped. (The window is too
// narrow for the split layout: the detail pane, which shows the frames'
// JSON, is not part of this test.)
func TestHostileTextInPanesIsEscaped(t *testing.T) {
	m := newTestModel(t, hostileStore(t), splitMinWidth-1, 40)
	screentest.AssertSafeView(t, "traffic", m.View().Content)
	m.Update(ErrorMsg{Err: errors.New("the server said: " + screentest.Hostile)})
	view := m.View().Content
	screentest.AssertSafeView(t, "status bar", view)
	if !strings.Contains(goldentest.Plain(view), "the server said: "+screentest.HostileShown[:20]) {
		t.Errorf("the status bar lacks the last error:\n%s", goldentest.Plain(view))
	}
	for _, p := range []paneID{paneStderr, paneDatagrams} {
		m.setFocus(p)
		screentest.AssertSafeView(t, paneNames[p], m.View().Content)
	}
}

// A JSON-RPC error answer shown as an outcome, with its message escaped.
func TestHostileOutcomeIsEscaped(t *testing.T) {
	m := newTestModel(t, capture.NewStore(capture.Config{}), 100, 30)
	err := &client.RPCError{Method: "tools/call", Err: &jsonrpc.Error{Code: -32000, Message: screentest.Hostile + "\nsecond line"}}
	o := look.NewOutcome("tools/call", nil, err, mcp.DialectMCP, m.styles)
	screentest.AssertSafeView(t, "error outcome", o.Render(100, 20))
	res := json.RawMessage(`{"content":[{"type":"text","text":` + asktest.MustJSON(t, screentest.Hostile) + `},{"type":"resource_link","uri":` + asktest.MustJSON(t, screentest.Hostile) + `,"name":"n"}]}`)
	o = look.NewOutcome("tools/call", res, nil, mcp.DialectMCP, m.styles)
	screentest.AssertSafeView(t, "result outcome", strings.SplitN(o.Render(100, 40), "── result JSON ──", 2)[0])
}

// An elicitation's message (form and URL mode) and a sampling request's
// texts are shown escaped.
func TestHostileQuestionsAreEscaped(t *testing.T) {
	cases := map[string]struct{ method, params string }{
		"form elicitation": {mcp.MethodElicitationCreate, `{"message":` + asktest.MustJSON(t, screentest.Hostile) + `,"requestedSchema":` + screentest.ElicitFormSchema + `}`},
		"url elicitation": {mcp.MethodElicitationCreate, `{"mode":"url","message":` + asktest.MustJSON(t, screentest.Hostile) +
			`,"elicitationId":` + asktest.MustJSON(t, screentest.Hostile) + `,"url":` + asktest.MustJSON(t, "https://example.com/"+screentest.Hostile) + `}`},
		"sampling": {mcp.MethodSamplingCreateMessage, `{"systemPrompt":` + asktest.MustJSON(t, screentest.Hostile) +
			`,"messages":[{"role":` + asktest.MustJSON(t, screentest.Hostile) + `,"content":{"type":"text","text":` + asktest.MustJSON(t, screentest.Hostile) + `}}],"maxTokens":5}`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			m, r, b := questionModel(t, nil, 120, 40)
			ask(t, r, b, context.Background(), c.method, c.params)
			screentest.AssertSafeView(t, name, m.View().Content)
		})
	}
}

// A frame mcpscope could not write is labelled a write failure, not a
// decode error.
func TestFailedWriteLabel(t *testing.T) {
	f := &capture.Frame{Dir: capture.Out, Chan: capture.Channel{Kind: capture.Control},
		Err: errors.New("the notification notifications/initialized above was not sent whole: broken pipe")}
	label, tone := frameLabel(f, newIndex(), mcp.DialectMCP)
	if label != "write failed: the notification notifications/initialized above was not sent whole: broken pipe" || tone != toneBad {
		t.Errorf("label %q, tone %v", label, tone)
	}
}
