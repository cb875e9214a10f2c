package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/mcpscope/mcpscope/prompts"
	"github.com/mcpscope/mcpscope/proto"
)

// maxFileAnswer bounds the file a file answer sends: its base64 content
// must fit in one frame of every transport.
const maxFileAnswer = 4 << 20

// promptAnswers hands out the interaction: answers of the answers file in
// order, across every step of a run. A script walks one prompt at a time,
// so it needs no lock.
type promptAnswers struct {
	list   []InteractionAnswer
	next   int
	noFile bool // no answers file was given
}

// take returns the next answer, or the exit-2 failure naming the prompt
// when none is left.
func (q *promptAnswers) take(p *proto.InteractionPrompt) (InteractionAnswer, error) {
	if q.next >= len(q.list) {
		return InteractionAnswer{}, noAnswerLeft(proto.MethodInteractionPrompt, p.Message, q.noFile)
	}
	a := q.list[q.next]
	q.next++
	return a, nil
}

// value renders the answer as the JSON value of interaction.respond: the
// value as given, or a file's {"name","size","content"}. A cancellation has
// no value.
func (a InteractionAnswer) value() (json.RawMessage, error) {
	if a.File == "" {
		b, err := json.Marshal(a.Value)
		if err != nil {
			return nil, usagef("the interaction answer %v cannot be sent as JSON: %w", a.Value, err)
		}
		return b, nil
	}
	v, err := prompts.ReadFileValue(a.File, maxFileAnswer)
	if err != nil {
		return nil, usagef("cannot use the file answer %s: %w", a.File, err)
	}
	return v, nil
}

// describe names the answer for messages, short: "John", a file, a cancel.
func (a InteractionAnswer) describe() string {
	switch {
	case a.Cancel:
		return "cancel"
	case a.File != "":
		return "the file " + filepath.Base(a.File)
	}
	b, err := json.Marshal(a.Value)
	if err != nil {
		return fmt.Sprint(a.Value)
	}
	return shorten(string(b), 60)
}
