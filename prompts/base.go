package prompts

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpscope/mcpscope/internal/app/textfit"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// base is what every widget shares: the prompt, keys and styles, the
// messages shown under the answer, and the frame they are drawn in.
type base struct {
	prompt     mcp.InteractionPrompt
	keys       KeyMap
	styles     Styles
	submitKey  key.Binding // the key that answers (ctrl+s in the JSON editor)
	w, h       int
	refusal    string   // the server's reason for refusing the last answer
	suggestion string   // the server's advice on answering instead
	invalid    string   // the client-side check that failed, after a submit
	checked    bool     // a submit was tried: re-check on every edit
	notes      []string // standing notices about the prompt itself
}

func newBase(p mcp.InteractionPrompt, opts Options) *base {
	keys := DefaultKeyMap()
	return &base{prompt: p, keys: keys, styles: DefaultStyles(opts.Dark), submitKey: keys.Submit}
}

// Prompt returns the prompt the widget answers.
func (b *base) Prompt() mcp.InteractionPrompt { return b.prompt }

// SetSize tells the widget the size it will be drawn at.
func (b *base) SetSize(w, h int) { b.w, b.h = w, h }

// SetRefusal shows a server's refusal (accepted:false) of the last answer
// until the next edit; a nil err and "" clear it.
func (b *base) SetRefusal(err error, suggestion string) {
	b.refusal, b.suggestion = "", suggestion
	if err != nil {
		b.refusal = err.Error()
	}
}

// required reports whether the prompt demands an answer.
func (b *base) required() bool {
	return b.prompt.Validation != nil && b.prompt.Validation.Required
}

// answer is what a widget adds to base: editing, and its own checks.
type answer interface {
	// edit handles a message that is neither submit nor cancel; edited
	// reports whether the answer changed.
	edit(msg tea.Msg) (edited bool, cmd tea.Cmd)
	Validate() error
}

// update is the Update every widget shares: cancel, submit (checked
// first), a change of background, and the rest to the widget's edit.
func (b *base) update(a answer, msg tea.Msg) (Action, tea.Cmd) {
	if bg, ok := msg.(tea.BackgroundColorMsg); ok {
		b.styles = DefaultStyles(bg.IsDark())
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, b.keys.Cancel):
			return ActionCancel, nil
		case key.Matches(k, b.submitKey):
			return b.submit(a.Validate()), nil
		}
	}
	edited, cmd := a.edit(msg)
	if edited {
		b.edited(a.Validate)
	}
	return ActionNone, cmd
}

// submit shows err and stays, or answers when err is nil.
func (b *base) submit(err error) Action {
	b.checked = true
	if err != nil {
		b.invalid = err.Error()
		return ActionNone
	}
	b.invalid = ""
	return ActionSubmit
}

// edited clears the server's refusal and, once a submit was refused,
// checks the answer again so the message follows the typing.
func (b *base) edited(validate func() error) {
	b.refusal, b.suggestion = "", ""
	if !b.checked {
		return
	}
	b.invalid = ""
	if err := validate(); err != nil {
		b.invalid = err.Error()
	}
}

// frame draws the question, the rules and notices, the widget's body and
// the messages (client check, refusal, suggestion) in at most w×h cells.
// body gets the lines it may use.
func (b *base) frame(w, h int, rules string, body func(w, avail int) []string) string {
	w, h = max(w, 1), max(h, 1)
	st := &b.styles
	head := textfit.Wrap(st.Message, b.prompt.Message, w)
	head = append(head, textfit.Wrap(st.Rules, rules, w)...)
	for _, n := range b.notes {
		head = append(head, textfit.Wrap(st.Suggestion, n, w)...)
	}
	var foot []string
	if b.invalid != "" {
		foot = append(foot, textfit.Wrap(st.Error, "✗ "+b.invalid, w)...)
	}
	if b.refusal != "" {
		foot = append(foot, textfit.Wrap(st.Error, "✗ refused: "+b.refusal, w)...)
	}
	if b.suggestion != "" {
		foot = append(foot, textfit.Wrap(st.Suggestion, "→ "+b.suggestion, w)...)
	}
	return fit(head, foot, h, func(avail int) []string {
		lines := body(w, avail)
		lines = lines[:min(len(lines), avail)]
		for i, l := range lines {
			lines[i] = textfit.Clip(l, w)
		}
		return lines
	})
}

// fit stacks head, body and foot in h lines. The body keeps a line, the
// question its first line, then the messages are kept, then the rest of
// the head; the body gets what is left.
func fit(head, foot []string, h int, body func(avail int) []string) string {
	keepHead := min(len(head), 1)
	if h <= 1 {
		keepHead = 0
	}
	footN := min(len(foot), max(0, h-1-keepHead))
	headN := min(len(head), max(keepHead, h-1-footN))
	avail := max(0, h-headN-footN)
	lines := append([]string{}, head[:headN]...)
	lines = append(lines, body(avail)...)
	lines = append(lines, foot[:footN]...)
	return strings.Join(lines[:min(len(lines), h)], "\n")
}

// splitLines splits a rendered block into lines, dropping trailing blank
// ones.
func splitLines(s string) []string {
	lines := strings.Split(s, "\n")
	for len(lines) > 0 && strings.TrimSpace(ansi.Strip(lines[len(lines)-1])) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
