package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

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
			var m *jsonrpc.Message
			var err error
			if part.dir == capture.Out {
				m, err = jsonrpc.NewRequest(jsonrpc.IntID(part.id), mcp.MethodToolsCall, rawJSON(part.body))
			} else {
				m, err = jsonrpc.NewResult(jsonrpc.IntID(part.id), rawJSON(part.body))
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
