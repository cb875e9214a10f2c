package explore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/prompts/schemaform"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// suggestDelay is how long the text of a field rests before the explorer
// asks completion/complete for it: typing faster sends nothing.
const suggestDelay = 150 * time.Millisecond

// suggestKey asks for suggestions at once, also from a server that does
// not advertise completions.
var suggestKey = key.NewBinding(key.WithKeys("ctrl+space", "ctrl+@"), key.WithHelp("ctrl+space", "suggest values"))

// notAdvertised is said once, under the first field, to a server that does
// not advertise completions: the explorer then asks only when told to.
const notAdvertised = "the server does not advertise completions: ctrl+space asks anyway"

// suggester asks completion/complete as the user types a prompt argument
// or a template variable. Each change of the focused field's text starts
// a new generation: an older tick or answer is stale and dropped, and the
// request of an older generation is cancelled.
type suggester struct {
	gen        int
	name, text string             // the focused field and its text, last seen
	seen       bool               // name and text hold a field
	asked      bool               // this generation's request is sent
	cancel     context.CancelFunc // the request in flight, nil when none
	told       bool               // notAdvertised was said
}

// suggestTickMsg ends the rest of the text of one generation.
type suggestTickMsg struct{ gen int }

// suggestAnswerMsg is the answer to the completion/complete of one
// generation, for the text it was asked with.
type suggestAnswerMsg struct {
	gen        int
	name, text string
	got        client.Suggestions
	err        error
}

// stop cancels the request in flight and forgets the field: a form closed
// or sent asks nothing more.
func (s *suggester) stop() {
	if s.cancel != nil {
		s.cancel()
		s.cancel = nil
	}
	s.gen++
	s.seen, s.asked = false, false
}

// completionRef is what completion/complete names for the open form: the
// prompt, or the URI template; ok is false for a tool's form.
func (x *Explorer) completionRef() (mcp.CompleteReference, bool) {
	switch {
	case x.target.tab == tabPrompts:
		return client.PromptRef(x.target.name), true
	case x.target.tab == tabTemplates && x.tmpl != nil:
		return client.TemplateRef(x.target.uri), true
	}
	return mcp.CompleteReference{}, false
}

// suggestAfter looks at the focused field after the form handled a
// message: a new field or a new text cancels what was asked and, on a
// server that advertises completions, asks again once the text rests.
func (x *Explorer) suggestAfter() tea.Cmd {
	s := &x.suggest
	if _, ok := x.completionRef(); !ok || x.form == nil {
		return nil
	}
	name, text, ok := x.form.FocusedText()
	if !ok {
		s.stop()
		return nil
	}
	if s.seen && name == s.name && text == s.text {
		return nil
	}
	s.stop()
	s.name, s.text, s.seen = name, text, true
	sess, err := x.d.Session()
	if err != nil {
		return nil
	}
	if !sess.AdvertisesCompletions() {
		if !s.told {
			s.told = true
			x.form.Suggest(name, text, schemaform.Suggestions{Note: notAdvertised})
		}
		return nil
	}
	gen := s.gen
	return tea.Tick(suggestDelay, func(time.Time) tea.Msg { return suggestTickMsg{gen: gen} })
}

// suggestNow asks for the focused field at once (ctrl+space).
func (x *Explorer) suggestNow() tea.Cmd {
	if _, ok := x.completionRef(); !ok || x.form == nil {
		return errorCmd("suggestions are for the arguments of a prompt or the variables of a template")
	}
	name, text, ok := x.form.FocusedText()
	if !ok {
		return errorCmd("suggestions are for a text field")
	}
	s := &x.suggest
	s.stop()
	s.name, s.text, s.seen = name, text, true
	return x.ask()
}

// suggestUpdate handles the explorer's own suggestion messages.
func (x *Explorer) suggestUpdate(msg tea.Msg) tea.Cmd {
	s := &x.suggest
	switch msg := msg.(type) {
	case suggestTickMsg:
		if msg.gen == s.gen && s.seen && !s.asked && x.mode == modeForm {
			return x.ask()
		}
	case suggestAnswerMsg:
		if msg.gen != s.gen || x.form == nil || x.mode != modeForm {
			return nil // stale: the text changed, or the form is gone
		}
		if s.cancel != nil {
			s.cancel() // answered: nothing left to cancel
			s.cancel = nil
		}
		x.form.Suggest(msg.name, msg.text, suggestionsOf(msg.got, msg.err))
	}
	return nil
}

// ask sends completion/complete for the field last seen, with the rest of
// the form's values as context; the answer comes back as a
// suggestAnswerMsg of this generation.
func (x *Explorer) ask() tea.Cmd {
	s := &x.suggest
	ref, _ := x.completionRef()
	sess, err := x.d.Session()
	if err != nil {
		x.form.Suggest(s.name, s.text, schemaform.Suggestions{Err: "completion/complete was not sent: " + err.Error()})
		return nil
	}
	others := map[string]string{}
	if v, err := x.form.Value(); err == nil {
		others = stringValues(v)
	}
	delete(others, s.name)
	ctx, cancel := context.WithCancel(x.d.Context())
	s.cancel, s.asked = cancel, true
	gen, name, text := s.gen, s.name, s.text
	return func() tea.Msg {
		got, err := sess.Complete(ctx, ref, name, text, others)
		return suggestAnswerMsg{gen: gen, name: name, text: text, got: got, err: err}
	}
}

// suggestionsOf turns an answer into what the form shows: the values and
// what they leave out, or the failure in one line.
func suggestionsOf(got client.Suggestions, err error) schemaform.Suggestions {
	if err != nil {
		var rpc *client.RPCError
		if errors.As(err, &rpc) && rpc.Err != nil {
			return schemaform.Suggestions{Err: fmt.Sprintf("completion/complete: %s (code %d)", rpc.Err.Message, rpc.Err.Code)}
		}
		return schemaform.Suggestions{Err: "completion/complete: " + err.Error()}
	}
	out := schemaform.Suggestions{Values: got.Values}
	switch {
	case got.HasMore && got.Total != nil:
		out.More = fmt.Sprintf("%d of %d; type more to narrow", len(got.Values), *got.Total)
	case got.HasMore:
		out.More = "the server has more; type more to narrow"
	}
	if got.Dropped > 0 {
		dropped := plural.Count(got.Dropped, "value", "values") + " dropped"
		if out.More != "" {
			dropped = out.More + "; " + dropped
		}
		out.More = dropped
	}
	return out
}

// suggestHelp adds the key that asks for suggestions to the help of a
// prompt's or a template's form.
func (x *Explorer) suggestHelp(h *keyhelp.Map) {
	if _, ok := x.completionRef(); ok && !x.form.SuggestionsOpen() {
		h.Short = append(slices.Clone(h.Short), suggestKey)
		h.Full = append([][]key.Binding{{suggestKey}}, h.Full...)
	}
}
