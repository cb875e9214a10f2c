package compose

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
)

// answerView is an answer rendered and judged: its outcome and, for a
// tools/call, the failure client.CheckToolResult finds (nil when none).
type answerView struct {
	out     *look.Outcome
	failure *client.ToolFailure
}

// answerRenderer returns what renders the answer of the call being sent
// where it arrives, in the call's tea.Cmd rather than in Update: the
// outcome, built and wrapped once at the composer's width, and for a
// tools/call its verdict (with the outputSchema the tool's listing
// declared), which the outcome then shows as failed. It takes copies of
// what it reads of the composer.
func (c *Composer) answerRenderer() func(json.RawMessage, error) *answerView {
	call, st, d, w, h := c.call, *c.st, c.d.Dialect(), c.w, c.h
	var schema json.RawMessage
	if !call.notify && call.method == mcp.MethodToolsCall {
		schema = c.d.OutputSchema(call.toolName())
	}
	return func(res json.RawMessage, err error) *answerView {
		v := &answerView{failure: call.toolFailure(res, err, schema)}
		if err == nil && call.notify {
			v.out = &look.Outcome{Heading: call.method, Body: st.Ink.Good.Paint("the notification was written: a notification has no answer")}
		} else {
			v.out = look.NewOutcome(call.method, res, err, d, &st)
		}
		if v.failure != nil {
			v.out.FailTool(v.failure, &st)
		}
		v.out.SetSize(w, max(h-1, 0)) // wrapped here: renderAnswer draws it at this width
		return v
	}
}
