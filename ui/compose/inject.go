package compose

import (
	"encoding/json"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// composeInjectedMsg says how a message injected into a proxied session
// went: the id the proxy gave a request, or why it was not sent.
type composeInjectedMsg struct {
	gen int
	id  string
	err error
}

// inject sends the current call into a proxied session through inj: the
// proxy gives a request an id of its own and keeps its answer from the
// host; the traffic shows both.
func (c *Composer) inject(inj screen.InjectFunc, gen int) tea.Cmd {
	call := c.call
	msg := map[string]any{"jsonrpc": "2.0", "method": call.method}
	if !call.notify {
		msg["id"] = 0 // the proxy gives it an id of its own
	}
	if p := call.wireParams(); p != nil {
		msg["params"] = p
	}
	body, err := json.Marshal(msg)
	if err != nil {
		c.sentAt = c.now()
		c.injected(composeInjectedMsg{gen: gen, err: fmt.Errorf("%s was not sent: %w", call.method, err)})
		return nil
	}
	c.picker.history.add(call)
	c.stage, c.sentAt, c.injectedID = stageWait, c.now(), ""
	ctx := c.d.Context()
	return tea.Batch(func() tea.Msg {
		id, err := inj(ctx, body)
		return composeInjectedMsg{gen: gen, id: id, err: err}
	}, composeTick(gen))
}

// injected shows how the injection of send msg.gen went: a request
// waits for its answer (injectedAnswer), which the proxy keeps from the
// host.
func (c *Composer) injected(msg composeInjectedMsg) {
	if msg.gen != c.gen {
		return
	}
	elapsed := look.Duration(c.now().Sub(c.sentAt))
	switch {
	case msg.err != nil:
		c.heading = "✗ not injected · " + c.call.method + " · " + elapsed
		c.answer = look.NewOutcome(c.call.method, nil, msg.err, c.d.Dialect(), c.st)
	case c.call.notify:
		c.heading = "→ notification injected · " + c.call.method
		c.answer = &look.Outcome{Heading: c.call.method, Body: c.st.Ink.Good.Paint("the notification went to the server: a notification has no answer")}
	default:
		c.injectedID = msg.id
		c.injectedAnswer()
		return
	}
	c.stage = stageAnswer
}

// injectedAnswer shows the answer to the injected request once the proxy
// captured it; until then the composer waits.
func (c *Composer) injectedAnswer() {
	m, ok := screen.InjectedAnswer(c.d, c.injectedID)
	if !ok {
		return
	}
	res := composeAnswerMsg{gen: c.gen, result: m.Result}
	if m.Error != nil {
		res.err = &client.RPCError{Method: c.call.method, Err: m.Error}
	}
	c.answered(res)
}
