package answers

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/prompts"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// maxFileAnswer bounds the file a file answer sends: its base64 content
// must fit in one frame of every transport.
const maxFileAnswer = 4 << 20

// Prompts hands out the interaction answers of an answers file in order,
// across every step of a run. A script walks one prompt at a time, so it
// needs no lock.
type Prompts struct {
	list   []Interaction
	next   int
	noFile bool // no answers file was given
}

// NewPrompts hands out list in order; noFile says no answers file was
// given, which the failure of a prompt left unanswered says.
func NewPrompts(list []Interaction, noFile bool) Prompts {
	return Prompts{list: list, noFile: noFile}
}

// Take returns the next answer, or the *UnansweredError naming the prompt
// when none is left.
func (q *Prompts) Take(p *mcp.InteractionPrompt) (Interaction, error) {
	if q.next >= len(q.list) {
		return Interaction{}, noAnswerLeft(mcp.MethodInteractionPrompt, p.Message, q.noFile)
	}
	a := q.list[q.next]
	q.next++
	return a, nil
}

// Respond renders the answer as the value of interaction.respond: the
// value as given, or a file's {"name","size","content"}. A cancellation has
// no value.
func (a Interaction) Respond() (json.RawMessage, error) {
	if a.File == "" {
		b, err := json.Marshal(a.Value)
		if err != nil {
			return nil, fmt.Errorf("the interaction answer %v cannot be sent as JSON: %w", a.Value, err)
		}
		return b, nil
	}
	v, err := prompts.ReadFileValue(a.File, maxFileAnswer)
	if err != nil {
		return nil, fmt.Errorf("cannot use the file answer %s: %w", a.File, err)
	}
	return v, nil
}

// Describe names the answer for messages, short: "John", a file, a cancel.
func (a Interaction) Describe() string {
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
	return termtext.Ellipsis(string(b), 60)
}
