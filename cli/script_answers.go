package cli

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mcpscope/mcpscope/proto"
)

// maxFileAnswer bounds the file a file answer sends: its base64 content
// must fit in one frame of every transport.
const maxFileAnswer = 4 << 20

// promptAnswers hands out the interaction: answers of the answers file in
// order, across every step of a run. A script walks one prompt at a time,
// so it needs no lock.
type promptAnswers struct {
	list []InteractionAnswer
	next int
}

// take returns the next answer, or the exit-2 failure naming the prompt
// when none is left.
func (q *promptAnswers) take(p *proto.InteractionPrompt) (InteractionAnswer, error) {
	if q.next >= len(q.list) {
		return InteractionAnswer{}, noAnswerLeft(proto.MethodInteractionPrompt, p.Message)
	}
	a := q.list[q.next]
	q.next++
	return a, nil
}

// fileAnswer is the value a file answer sends: the file's base name, size
// and content in standard base64.
type fileAnswer struct {
	Name    string `json:"name"`
	Size    int64  `json:"size"`
	Content string `json:"content"`
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
	f, err := os.Open(a.File)
	if err != nil {
		return nil, usagef("cannot read the file answer: %w", err)
	}
	defer f.Close()
	content, err := io.ReadAll(io.LimitReader(f, maxFileAnswer+1))
	if err != nil {
		return nil, usagef("cannot read the file answer %s: %w", a.File, err)
	}
	if len(content) > maxFileAnswer {
		return nil, usagef("the file answer %s is over %d bytes", a.File, maxFileAnswer)
	}
	return json.Marshal(fileAnswer{
		Name:    filepath.Base(a.File),
		Size:    int64(len(content)),
		Content: base64.StdEncoding.EncodeToString(content),
	})
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
