package question

import (
	"encoding/json"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
)

// FuzzQuestionViews: any params of elicitation/create or
// sampling/createMessage either build a view or are refused; a view draws
// at any size and takes the keys without panicking.
func FuzzQuestionViews(f *testing.F) {
	for _, seed := range []string{screentest.ElicitFormParams, screentest.ElicitURLParams, screentest.SamplingParams, `{}`, `null`, `{"mode":"url","url":"x"}`,
		`{"messages":[{"role":"user","content":[1,{"type":"image"}]}],"modelPreferences":[]}`,
		`{"requestedSchema":{"type":"object","properties":{"a":{"$ref":"#"}}}}`} {
		f.Add(seed, uint8(40))
	}
	st := look.NewStyles(true)
	f.Fuzz(func(t *testing.T, params string, width uint8) {
		for _, method := range []string{mcp.MethodElicitationCreate, mcp.MethodSamplingCreateMessage} {
			v, err := newQuestionView(&question{method: method, params: json.RawMessage(params)}, &st)
			if err != nil {
				continue
			}
			w := int(width)
			v.setSize(w, 12)
			_ = v.render(w, 12)
			_ = v.kind()
			_ = v.help()
			for _, k := range []string{"tab", "x", "space", "pgdown", "enter"} {
				v.update(keytest.Press(k))
			}
			_ = v.render(w, 12)
		}
	})
}
