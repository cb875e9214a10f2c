package explore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/schemacheck"
	"github.com/mcpscope/mcpscope/prompts/schemaform"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// exploreAnswerMsg carries the answer to a request the explorer sent and
// how long it took from the call to its answer.
type exploreAnswerMsg struct {
	gen     int
	done    screen.CallDoneMsg
	elapsed time.Duration
	// view is the answer rendered where it arrived, off the Update
	// goroutine; nil when the sender left it to answered.
	view *answerView
}

// answerView is an answer rendered and judged: its outcome and, for a
// tools/call of a listed tool, the failure client.CheckToolResult finds
// (nil when none).
type answerView struct {
	out     *look.Outcome
	failure *client.ToolFailure
}

// open acts on an entry: a tool, a template and a prompt with arguments
// open their form; a resource is read and a prompt without arguments is
// fetched at once.
func (x *Explorer) open(e entry) tea.Cmd {
	x.target, x.tmpl, x.note, x.info = e, nil, "", ""
	if e.bad != "" {
		return nil
	}
	switch e.tab {
	case tabTools:
		return x.openTool(e)
	case tabResources:
		return x.call(mcp.MethodResourcesRead, map[string]any{"uri": e.uri}, e.uri)
	case tabTemplates:
		t, err := parseURITemplate(e.uri)
		if err != nil {
			x.showAnswer(mcp.MethodResourcesRead, e.uri, nil, fmt.Errorf("the template cannot be expanded: %w", err))
			return nil
		}
		x.tmpl = t
		return x.openForm(templateSchema(t), "resources/read "+e.uri)
	case tabPrompts:
		if len(e.args) == 0 {
			return x.call(mcp.MethodPromptsGet, map[string]any{"name": e.name}, e.name)
		}
		return x.openForm(promptSchema(e.args), "prompts/get "+e.name)
	}
	return nil
}

// openForm shows the form of schema, filled with the arguments of the
// entry's last call. A schema that is not a JSON object gets a form for
// any object, with a note saying why.
func (x *Explorer) openForm(schema json.RawMessage, title string) tea.Cmd {
	opts := schemaform.Options{Title: title, Defaults: x.last[x.target.key()], Dark: x.d.Styles().Dark}
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	f, err := schemaform.New(schema, opts)
	if err != nil {
		x.note = "the schema is unusable (" + err.Error() + "); any JSON object is accepted"
		if f, err = schemaform.New(json.RawMessage(`{"type":"object"}`), opts); err != nil {
			x.showAnswer("", title, nil, err)
			return nil
		}
	}
	x.form, x.mode = f, modeForm
	f.SetSize(x.w, x.formHeight())
	return x.suggestAfter()
}

// templateSchema is the form of a template's variables: one string per
// variable, required when the URI needs it.
func templateSchema(t *uriTemplate) json.RawMessage {
	var props []schemaProp
	var required []string
	for _, v := range t.Vars() {
		p := map[string]any{"type": "string", "description": "expands " + v.expr}
		if v.required {
			p["minLength"] = 1
			required = append(required, v.name)
		}
		props = append(props, schemaProp{v.name, p})
	}
	return objectSchema(props, required)
}

// promptSchema is the form of a prompt's arguments: one string each.
func promptSchema(args []mcp.PromptArgument) json.RawMessage {
	var props []schemaProp
	var required []string
	for _, a := range args {
		p := map[string]any{"type": "string"}
		if a.Title != "" {
			p["title"] = a.Title
		}
		if a.Description != "" {
			p["description"] = a.Description
		}
		if a.Required {
			required = append(required, a.Name)
		}
		props = append(props, schemaProp{a.Name, p})
	}
	return objectSchema(props, required)
}

// schemaProp is one property of a generated schema.
type schemaProp struct {
	name   string
	schema map[string]any
}

// objectSchema builds an object schema whose properties keep their order
// (the form shows them in document order); a repeated name counts once.
func objectSchema(props []schemaProp, required []string) json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	seen := map[string]bool{}
	for _, p := range props {
		if seen[p.name] {
			continue
		}
		if len(seen) > 0 {
			b.WriteByte(',')
		}
		seen[p.name] = true
		b.Write(mustMarshal(p.name))
		b.WriteByte(':')
		b.Write(mustMarshal(p.schema))
	}
	b.WriteByte('}')
	if len(required) > 0 {
		b.WriteString(`,"required":`)
		b.Write(mustMarshal(slices.Compact(slices.Sorted(slices.Values(required)))))
	}
	b.WriteByte('}')
	return b.Bytes()
}

// mustMarshal encodes values that always encode (strings, maps of them).
func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte("null")
	}
	return b
}

// updateForm forwards a message to the form and acts on what it did.
func (x *Explorer) updateForm(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, suggestKey) {
		return x.suggestNow()
	}
	act, cmd := x.form.Update(msg)
	switch act {
	case schemaform.ActionCancel:
		x.backToList()
		return nil
	case schemaform.ActionSubmit:
		x.suggest.stop()
		return tea.Batch(cmd, x.submit())
	}
	return tea.Batch(cmd, x.suggestAfter())
}

// submit sends the request of the validated form and remembers its
// arguments for the next call of the same entry.
func (x *Explorer) submit() tea.Cmd {
	v, err := x.form.Value()
	if err != nil {
		x.note = err.Error()
		return nil
	}
	e := x.target
	x.last[e.key()] = v
	if x.benching && e.tab == tabTools {
		return x.openBench(e, v)
	}
	switch e.tab {
	case tabTools:
		s, _ := x.d.Session()
		return x.call(mcp.MethodToolsCall, taskParams(s, e, map[string]any{"name": e.name, "arguments": v}), e.name)
	case tabTemplates:
		uri := x.tmpl.Expand(stringValues(v))
		return x.call(mcp.MethodResourcesRead, map[string]any{"uri": uri}, uri)
	case tabPrompts:
		return x.call(mcp.MethodPromptsGet, map[string]any{"name": e.name, "arguments": v}, e.name)
	}
	return nil
}

// stringValues reads a form's object as strings: a string member as it
// is, any other value (typed in the JSON editor) as its JSON text.
func stringValues(v json.RawMessage) map[string]string {
	var members map[string]json.RawMessage
	if json.Unmarshal(v, &members) != nil {
		return nil
	}
	out := make(map[string]string, len(members))
	for k, raw := range members {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			s = string(raw)
		}
		out[k] = s
	}
	return out
}

// call sends a request on the session; its answer comes back as an
// exploreAnswerMsg and is shown as an outcome.
func (x *Explorer) call(method string, params any, subject string) tea.Cmd {
	x.callGen++
	gen := x.callGen
	x.form = nil
	s, err := x.d.Session()
	if err != nil {
		x.showAnswer(method, subject, nil, fmt.Errorf("%s was not sent: %w", method, err))
		return nil
	}
	x.mode, x.method, x.subject, x.elapsed, x.sentAt = modeCalling, method, subject, 0, time.Now()
	fl := &screen.SentID{}
	tf := &taskFollow{}
	x.inflight, x.task = fl, tf
	ctx := x.d.Context()
	render := x.answerRenderer(method)
	return tea.Batch(tickWaiting(gen), func() tea.Msg {
		start := time.Now()
		res, err := s.Call(ctx, method, params, client.WithRounds(fl.Round), screen.AskProgress())
		if err == nil && method == mcp.MethodToolsCall {
			res, err = tf.follow(ctx, s, res, fl, start)
		}
		elapsed := time.Since(start)
		return exploreAnswerMsg{gen: gen, done: screen.CallDoneMsg{Method: method, Result: res, Err: err}, elapsed: elapsed, view: render(res, err)}
	})
}

// cancelCall cancels the request in flight; the root reports how it went.
func (x *Explorer) cancelCall() tea.Cmd {
	if x.pick.cancel != nil { // a gateway stream: close its connection
		x.pick.cancel()
		return nil
	}
	if x.mode == modeCalling && x.task.stop() {
		return nil // the follow sends tasks/cancel; its answer shows as cancelled
	}
	id, ok := x.inflight.Get()
	if _, err := x.d.Session(); !ok || err != nil {
		return func() tea.Msg { return screen.ErrorMsg{Err: errors.New("nothing to cancel: the request was not sent")} }
	}
	return x.d.CancelRequest(id)
}

// answered shows the answer of the current call; the root's status bar
// reports every answer, also one the user stopped waiting for.
func (x *Explorer) answered(msg exploreAnswerMsg) tea.Cmd {
	done := msg.done
	if msg.gen == x.callGen && x.mode == modeCalling {
		fl := x.inflight
		if msg.view != nil {
			x.showOutcome(msg.done.Method, x.subject, msg.view.out, msg.done.Err)
			done.ToolFailure = msg.view.failure
		} else {
			x.showAnswer(msg.done.Method, x.subject, msg.done.Result, msg.done.Err)
		}
		x.inflight, x.elapsed = fl, msg.elapsed
	}
	return func() tea.Msg { return done }
}

// showFrames shows the frames of the request in flight or answered in
// the traffic pane, or says why there are none.
func (x *Explorer) showFrames() tea.Cmd {
	id, ok := x.inflight.Get()
	if !ok {
		return func() tea.Msg {
			return screen.ErrorMsg{Err: errors.New("w: no request of this screen is on the wire: not sent yet, or a stream")}
		}
	}
	return x.d.ShowFrames(id)
}

// showAnswer shows an answer (or why there is none) as an outcome.
func (x *Explorer) showAnswer(method, subject string, res json.RawMessage, err error) {
	x.showOutcome(method, subject, look.NewOutcome(method, res, err, x.d.Dialect(), x.st), err)
}

// showOutcome shows the outcome of an answer.
func (x *Explorer) showOutcome(method, subject string, out *look.Outcome, err error) {
	x.pick.cancel = nil
	x.mode, x.method, x.subject, x.form, x.elapsed, x.inflight = modeOutcome, method, subject, nil, 0, nil
	x.out = out
	x.cancelled = errors.As(err, new(*client.CancelledError))
	x.out.SetSize(x.w, max(x.h-2, 0))
}

// answerRenderer returns what renders the answer of a request of method
// where it arrives, in the call's tea.Cmd rather than in Update: the
// outcome, built and wrapped once, and for a tools/call of the target tool its
// verdict (client.CheckToolResult, with the outputSchema its list
// declared, compiled apart so that the index's judgements against it
// never wait for this one), which the outcome then shows as failed. It
// takes copies of what it reads of the explorer.
func (x *Explorer) answerRenderer(method string) func(json.RawMessage, error) *answerView {
	st, d, tool, w, h := *x.st, x.d.Dialect(), x.target, x.w, x.h
	judged := method == mcp.MethodToolsCall && tool.tab == tabTools
	return func(res json.RawMessage, err error) *answerView {
		var schema json.RawMessage
		if judged {
			schema = tool.output
		}
		// One compile, apart, for the outcome's report and the verdict.
		once := sync.OnceValues(func() (*schemacheck.Schema, error) { return schemacheck.CompileApart(schema) })
		compile := func(json.RawMessage) (*schemacheck.Schema, error) { return once() }
		v := &answerView{out: look.NewCheckedOutcomeWith(method, res, err, d, &st, schema, compile)}
		if judged && err == nil {
			if v.failure = client.ToolResultCheckerWith(tool.name, schema, compile)(res); v.failure != nil {
				v.out.FailTool(v.failure, &st)
			}
		}
		v.out.SetSize(w, max(h-2, 0)) // wrapped here too: showOutcome keeps it at this width
		return v
	}
}
