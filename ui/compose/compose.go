// Package compose is the raw request composer (key :): pick any method,
// known or not, type its params as JSON, send it as a request or a
// notification and read the answer; what was sent is remembered for the
// run.
package compose

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/prompts/schemaform"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// composeStage is the step the composer is at.
type composeStage int

// The composer's steps: pick a method, edit its params, wait for the
// answer, read the answer.
const (
	stagePick composeStage = iota
	stageEdit
	stageWait
	stageAnswer
)

// Composer is the raw request composer (key :): it sends any request or
// notification, known or not, with params typed as JSON, and shows the
// answer. What it sends is remembered for the run and can be recalled.
type Composer struct {
	d    screen.Host
	st   *look.Styles
	keys composeKeys
	now  func() time.Time

	stage  composeStage
	picker *methodPicker
	editor *schemaform.JSONEditor
	call   composeCall // the call being edited, or the one sent last
	desc   string      // what the method does

	gen     int          // counts the sends; an answer of an older one is dropped
	sentAt  time.Time    // when the call was sent
	pending *pendingCall // the request waiting for its answer
	// injectedID is the id the proxy gave the request injected last
	// (inject.go), whose answer the composer waits for; "" for none.
	injectedID string
	heading    string // the line above the answer, plain
	answer     *look.Outcome
	w, h       int
}

// Open returns a composer at its method picker, and the command that
// focuses the picker. hist is what the composers of this run sent; it
// outlives each composer.
func Open(h screen.Host, hist *History) (*Composer, tea.Cmd) {
	st := h.Styles()
	c := &Composer{
		d: h, st: st, keys: defaultComposeKeys(), now: time.Now,
		picker: newMethodPicker(composeMethods(h.Dialect()), hist, st),
	}
	return c, c.picker.focus()
}

// Title names the step and the call.
func (c *Composer) Title() string {
	switch c.stage {
	case stageEdit:
		return fmt.Sprintf("Compose · %s %s", c.call.kind(), c.call.method)
	case stageWait, stageAnswer:
		return fmt.Sprintf("Compose · sent %s %s", c.call.kind(), c.call.method)
	}
	return "Compose · pick a method to send"
}

// SetSize keeps the body size.
func (c *Composer) SetSize(w, h int) { c.w, c.h = w, h }

// Help lists the keys of the current step.
func (c *Composer) Help() help.KeyMap { return c.keys.helpFor(c.stage, c.call.notify) }

// Update handles a key of the current step, or an answer, tick or other
// message.
func (c *Composer) Update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case composeAnswerMsg:
		c.answered(msg)
		return nil, false
	case composeInjectedMsg:
		c.injected(msg)
		return nil, false
	case composeTickMsg:
		if c.stage == stageWait && msg.gen == c.gen {
			if c.injectedID != "" {
				c.injectedAnswer()
				if c.stage != stageWait {
					return nil, false
				}
			}
			return composeTick(c.gen), false
		}
		return nil, false
	case tea.BackgroundColorMsg:
		if c.editor != nil {
			c.editor.SetDark(msg.IsDark())
		}
	case tea.KeyPressMsg:
		return c.handleKey(msg)
	}
	switch c.stage {
	case stagePick:
		return c.picker.update(msg, c.keys, c.pickerPage()), false
	case stageEdit:
		_, cmd := c.editor.Update(msg)
		return cmd, false
	}
	return nil, false
}

// handleKey handles a key press at the current step.
func (c *Composer) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := c.keys
	switch c.stage {
	case stagePick:
		switch {
		case key.Matches(msg, k.Back):
			return nil, true
		case key.Matches(msg, k.Pick):
			if r, ok := c.picker.selected(); ok {
				c.edit(r.call)
			}
			return nil, false
		case key.Matches(msg, k.Toggle):
			if c.picker.sel < len(c.picker.rows) {
				c.picker.rows[c.picker.sel].call.notify = !c.picker.rows[c.picker.sel].call.notify
			}
			return nil, false
		}
		return c.picker.update(msg, k, c.pickerPage()), false
	case stageEdit:
		if key.Matches(msg, k.Toggle) {
			c.call.notify = !c.call.notify
			return nil, false
		}
		action, cmd := c.editor.Update(msg)
		switch action {
		case schemaform.ActionCancel:
			c.stage = stagePick
			c.picker.refresh()
		case schemaform.ActionSubmit:
			params, err := c.editor.Value()
			if err != nil { // Validate passed, so this does not happen
				return cmd, false
			}
			c.call.params = params
			return tea.Batch(cmd, c.send()), false
		}
		return cmd, false
	case stageWait:
		switch {
		case key.Matches(msg, k.Back):
			c.gen++ // the answer, when it comes, is not shown
			c.stage = stageEdit
		case key.Matches(msg, k.Cancel):
			return c.cancel(), false
		}
	case stageAnswer:
		switch {
		case key.Matches(msg, k.Back):
			c.stage = stageEdit
		case key.Matches(msg, k.Again):
			return c.send(), false
		default:
			if v, ok := nav.Of(msg, c.d.Nav(), max(c.h-1, 1)); ok {
				c.answer.Scroll(v)
			}
		}
	}
	return nil, false
}

// pickerPage is the rows of one page of the picker.
func (c *Composer) pickerPage() int { return max(c.h-3, 1) }

// edit opens the editor on call: its params, or the method's template.
func (c *Composer) edit(call composeCall) {
	params := call.params
	if params == nil {
		params = paramsTemplate(call.method)
	}
	ed, err := schemaform.NewJSONEditor(composeSchema, params)
	if err != nil { // composeSchema is JSON
		return
	}
	ed.SetDark(c.d.Styles().Dark)
	c.editor, c.call, c.stage = ed, call, stageEdit
	c.desc = customMethod(call.method).desc
	if m, ok := lookupMethod(c.picker.methods, call.method); ok {
		c.desc = m.desc
	}
}

// Render draws the current step in w×h.
func (c *Composer) Render(w, h int) string {
	switch c.stage {
	case stageEdit:
		head := c.st.Ink.Muted.Paint(look.Cell(c.desc+" · ctrl+s sends it as a "+c.call.kind(), w))
		return head + "\n" + c.editor.Render(w, max(h-1, 1))
	case stageWait:
		return c.renderWaiting(w)
	case stageAnswer:
		return c.renderAnswer(w, h)
	}
	return c.picker.Render(w, h)
}
