package prompts

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/prompts/schemaform"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Action tells the caller what a message did to a widget. It is the
// form's Action, so one switch serves widgets and forms; a widget returns
// ActionNone, ActionSubmit (the answer passes the prompt's rules: send
// Value with interaction.respond) or ActionCancel (the user gave up the
// prompt with esc; the caller decides whether that means
// interaction.cancel).
type Action = schemaform.Action

// The actions a widget returns.
const (
	ActionNone   = schemaform.ActionNone
	ActionSubmit = schemaform.ActionSubmit
	ActionCancel = schemaform.ActionCancel
)

// Widget is the input of one interaction prompt.
type Widget interface {
	// Update handles one message: keys edit the answer, submit or cancel;
	// a tea.BackgroundColorMsg switches between dark and light styles.
	Update(msg tea.Msg) (Action, tea.Cmd)
	// Value is the answer as the JSON to send as interaction.respond's
	// response.value; the error says why there is none yet (text that is
	// not a number or a date, no file chosen).
	Value() (json.RawMessage, error)
	// Validate checks the answer against the prompt's declared rules;
	// the error explains itself ("at least 3 characters").
	Validate() error
	// SetRefusal shows a server's refusal of the last answer (its reason
	// and how to answer instead) until the answer is next edited.
	SetRefusal(err error, suggestion string)
	// Render draws the widget in at most w×h cells.
	Render(w, h int) string
	// SetSize tells the widget the size it will be drawn at.
	SetSize(w, h int)
	// KeyMap returns the keys that apply, for the help bar.
	KeyMap() help.KeyMap
	// Prompt returns the prompt the widget answers.
	Prompt() mcp.InteractionPrompt
}

// DefaultMaxFileSize is the largest file a file prompt reads when
// Options.MaxFileSize is zero: 10 MiB.
const DefaultMaxFileSize = 10 << 20

// Options configure the widgets New makes.
type Options struct {
	// Dir is the directory a file prompt starts in (its paths are shown
	// relative to it); "" means the working directory.
	Dir string
	// MaxFileSize is the largest file a file prompt reads, in bytes; 0
	// means DefaultMaxFileSize.
	MaxFileSize int64
	// PathOnly makes a file prompt answer with the chosen file's absolute
	// path (a JSON string) instead of its content: the file is not read,
	// so MaxFileSize does not apply. It picks a file for mcpscope itself
	// to send, a gateway stream's upload.
	PathOnly bool
	// Now is the clock of the date prompts: today on the calendar and the
	// default offset of a date-time. nil means time.Now.
	Now func() time.Time
	// Dark picks the styles for a dark background.
	Dark bool
}

// New makes the widget for prompt p, by its type. The error is for a
// prompt no widget can answer: an unknown type, or a choice without
// choices. A retry prompt (Error or Suggestion set) opens with the
// refusal shown.
func New(p mcp.InteractionPrompt, opts Options) (Widget, error) {
	b := newBase(p, opts)
	var w Widget
	var err error
	switch p.Type {
	case mcp.PromptText:
		w = newText(b)
	case mcp.PromptChoice:
		w, err = newChoice(b)
	case mcp.PromptConfirm:
		w = newConfirm(b)
	case mcp.PromptNumber:
		w = newNumber(b)
	case mcp.PromptDate:
		w = newDate(b, opts)
	case mcp.PromptFile:
		w = newFile(b, opts)
	case mcp.PromptCustom:
		w = newCustom(b, opts)
	default:
		return nil, fmt.Errorf("the prompt type %q is not one of text, choice, confirm, number, date, file or custom", p.Type)
	}
	if err != nil {
		return nil, err
	}
	if p.Error != "" || p.Suggestion != "" {
		var reason error
		if p.Error != "" {
			reason = errors.New(p.Error)
		}
		w.SetRefusal(reason, p.Suggestion)
	}
	return w, nil
}
