package question

import (
	"encoding/json"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
)

// Sampling answers.
const (
	// DefaultSamplingModel names the "model" of a reply the user wrote.
	DefaultSamplingModel = "mcpscope-user"
	// CodeUserRejected is the error MCP clients answer a sampling request
	// with when the user rejects it (the specification's example, -1).
	CodeUserRejected = -1
	// Messages of the rejections: declined on purpose, or dismissed.
	MsgSamplingDeclined  = "User rejected sampling request"
	MsgSamplingCancelled = "User cancelled sampling request"
	// samplingReplyLines is the most lines the reply box takes.
	samplingReplyLines = 8
)

// samplingView answers sampling/createMessage: it shows the conversation
// and the preferences the server sent, and the user writes the assistant's
// reply (ctrl+s sends it, ctrl+d declines, esc cancels).
type samplingView struct {
	st     *look.Styles
	keys   questionKeys
	p      mcp.CreateMessageParams
	reply  textarea.Model
	model  textinput.Model
	onName bool // the model name has the keys, not the reply
	offset int  // first line of the request shown
	note   string
	w, h   int

	request  []string // requestText wrapped requestW wide, drawn once a width
	requestW int
}

// newSamplingView reads the params of sampling/createMessage.
func newSamplingView(params json.RawMessage, st *look.Styles) (*samplingView, error) {
	v := &samplingView{st: st, keys: defaultQuestionKeys()}
	if err := decodeQuestionParams(params, &v.p); err != nil {
		return nil, err
	}
	v.reply = textarea.New()
	v.reply.Placeholder = "the assistant's reply"
	v.reply.ShowLineNumbers = false
	v.reply.SetStyles(st.Editor)
	v.model = textinput.New()
	v.model.SetStyles(st.Input)
	v.model.Prompt = "model: "
	v.model.SetValue(DefaultSamplingModel)
	return v, nil
}

// kind names the question.
func (v *samplingView) kind() string { return "sampling" }

// focus gives the reply box the keys.
func (v *samplingView) focus() tea.Cmd {
	v.onName = false
	v.model.Blur()
	return v.reply.Focus()
}

// setSize lays out the request above and the reply below.
func (v *samplingView) setSize(w, h int) {
	v.w, v.h = w, h
	v.reply.SetWidth(max(w, 10))
	v.reply.SetHeight(v.replyLines())
	v.model.SetWidth(max(w-len(v.model.Prompt)-1, 10))
}

// replyLines is the height of the reply box.
func (v *samplingView) replyLines() int {
	return max(min(samplingReplyLines, v.h/3), 2)
}

// update handles the keys; other messages go to the focused widget.
func (v *samplingView) update(msg tea.Msg) (tea.Cmd, *questionAnswer) {
	if _, ok := msg.(tea.BackgroundColorMsg); ok { // the root restyled v.st first
		v.reply.SetStyles(v.st.Editor)
		v.model.SetStyles(v.st.Input)
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, v.keys.Accept):
			return nil, v.send()
		case key.Matches(k, v.keys.Decline):
			return nil, samplingRefusal(MsgSamplingDeclined)
		case key.Matches(k, v.keys.Cancel):
			return nil, samplingRefusal(MsgSamplingCancelled)
		case key.Matches(k, v.keys.Next):
			return v.toggleFocus(), nil
		case key.Matches(k, v.keys.PageUp):
			v.offset = max(v.offset-v.requestHeight()+1, 0)
			return nil, nil
		case key.Matches(k, v.keys.PageDown):
			v.offset += max(v.requestHeight()-1, 1)
			return nil, nil
		}
		v.note = ""
	}
	var cmd tea.Cmd
	if v.onName {
		v.model, cmd = v.model.Update(msg)
	} else {
		v.reply, cmd = v.reply.Update(msg)
	}
	return cmd, nil
}

// toggleFocus moves the keys between the reply and the model name.
func (v *samplingView) toggleFocus() tea.Cmd {
	if v.onName {
		return v.focus()
	}
	v.onName = true
	v.reply.Blur()
	return v.model.Focus()
}

// send builds the assistant's message, refusing an empty reply.
func (v *samplingView) send() *questionAnswer {
	text := v.reply.Value()
	if strings.TrimSpace(text) == "" {
		v.note = "write the reply first (or ctrl+d to decline)"
		return nil
	}
	model := strings.TrimSpace(v.model.Value())
	if model == "" {
		model = DefaultSamplingModel
	}
	content, _ := json.Marshal(map[string]string{"type": "text", "text": text})
	return &questionAnswer{result: mcp.CreateMessageResult{
		Role: "assistant", Content: content, Model: model, StopReason: "endTurn",
	}}
}

// samplingRefusal is the error a rejected sampling request is answered with.
func samplingRefusal(msg string) *questionAnswer {
	return &questionAnswer{err: &jsonrpc.Error{Code: CodeUserRejected, Message: msg}}
}

// help lists the keys.
func (v *samplingView) help() help.KeyMap {
	k := v.keys
	accept := keyhelp.Relabel(k.Accept, "send reply")
	return keyhelp.Map{
		Short:     []key.Binding{accept, k.Next, k.Decline, k.Cancel, k.PageDown},
		Essential: []key.Binding{accept, k.Cancel},
		Full:      [][]key.Binding{{accept, k.Decline, k.Cancel}, {k.Next, k.PageUp, k.PageDown}},
		Typing:    true, // the reply or the model's name has the keys
	}
}
