package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/ui/look"
)

// FuzzQuestionViews: any params of elicitation/create or
// sampling/createMessage either build a view or are refused; a view draws
// at any size and takes the keys without panicking.
func FuzzQuestionViews(f *testing.F) {
	for _, seed := range []string{formParams, urlParams, samplingParams, `{}`, `null`, `{"mode":"url","url":"x"}`,
		`{"messages":[{"role":"user","content":[1,{"type":"image"}]}],"modelPreferences":[]}`,
		`{"requestedSchema":{"type":"object","properties":{"a":{"$ref":"#"}}}}`} {
		f.Add(seed, uint8(40))
	}
	st := look.NewStyles(true)
	f.Fuzz(func(t *testing.T, params string, width uint8) {
		for _, method := range []string{proto.MethodElicitationCreate, proto.MethodSamplingCreateMessage} {
			v, err := newQuestionView(&question{method: method, params: rawJSON(params)}, &st)
			if err != nil {
				continue
			}
			w := int(width)
			v.setSize(w, 12)
			_ = v.render(w, 12)
			_ = v.kind()
			_ = v.help()
			for _, k := range []string{"tab", "x", "space", "pgdown", "enter"} {
				v.update(keyPress(k))
			}
			_ = v.render(w, 12)
		}
	})
}

// FuzzRounds: any tools/call params and results read by the index keep
// the rounds consistent: a round always belongs to a group holding it.
func FuzzRounds(f *testing.F) {
	f.Add(`{"name":"w"}`, `{"resultType":"input_required","requestState":"s"}`, `{"name":"w","requestState":"s","inputResponses":{}}`)
	f.Add(`{"name":"w"}`, `{"resultType":"input_required"}`, `{"name":"w","inputResponses":{"a":1}}`)
	f.Add(`{}`, `"input_required"`, `{"requestState":1}`)
	f.Fuzz(func(t *testing.T, first, res, retry string) {
		x := newIndex()
		st := capture.NewStore(capture.Config{})
		for i, part := range []struct {
			dir  capture.Dir
			id   int64
			body string
		}{{capture.Out, 1, first}, {capture.In, 1, res}, {capture.Out, 2, retry}} {
			var m *proto.Message
			var err error
			if part.dir == capture.Out {
				m, err = proto.NewRequest(proto.IntID(part.id), proto.MethodToolsCall, rawJSON(part.body))
			} else {
				m, err = proto.NewResult(proto.IntID(part.id), rawJSON(part.body))
			}
			if err != nil {
				return
			}
			st.Append(&capture.Frame{Dir: part.dir, Conn: "c", Chan: capture.Channel{Kind: capture.Control}, Msg: m, Size: i})
		}
		x.catchUp(st)
		for _, c := range x.calls {
			if c.group != nil && (c.round < 1 || c.round > len(c.group.calls) || !strings.Contains(c.method, "round")) {
				t.Fatalf("call %+v is not in its group %+v", c, c.group)
			}
			_ = x.linkedSeqs(c)
		}
	})
}
