package tasksview

import (
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// FuzzBookNote: whatever a server answers a tools/call or tasks/get with,
// or notifies, and whatever filter a subscriptions/listen carries, the book reads it without panicking, keeps a task's frames
// in order and links each frame to at most one task.
func FuzzBookNote(f *testing.F) {
	for _, s := range []string{
		`{"resultType":"task","taskId":"a","status":"working","pollIntervalMs":-1}`,
		`{"task":{"taskId":"a","status":"input_required"}}`,
		`{"taskId":"a","status":"failed","error":{"code":1,"message":"\u001b[2J"}}`,
		`{"taskId":"","status":""}`, `[]`, `{"task":null}`,
		`{"notifications":{"taskIds":["a",1,"a"]},"_meta":{"io.modelcontextprotocol/subscriptionId":3},"taskId":"a","status":"working"}`,
	} {
		f.Add([]byte(s), []byte(s))
	}
	f.Fuzz(func(t *testing.T, handle, later []byte) {
		b := NewBook()
		seq := uint64(0)
		note := func(dir capture.Dir, m *jsonrpc.Message, err error) {
			if err != nil {
				return
			}
			seq++
			b.Note(&capture.Frame{Seq: seq, Dir: dir, Conn: "c", Msg: m})
		}
		call, err := jsonrpc.NewRequest(jsonrpc.IntID(1), "tools/call", map[string]string{"name": "x"})
		note(capture.Out, call, err)
		res, err := jsonrpc.DecodeMessage([]byte(`{"jsonrpc":"2.0","id":1,"result":` + string(handle) + `}`))
		note(capture.In, res, err)
		get, err := jsonrpc.NewRequest(jsonrpc.IntID(2), "tasks/get", map[string]string{"taskId": "a"})
		note(capture.Out, get, err)
		got, err := jsonrpc.DecodeMessage([]byte(`{"jsonrpc":"2.0","id":2,"result":` + string(later) + `}`))
		note(capture.In, got, err)
		listen, err := jsonrpc.DecodeMessage([]byte(`{"jsonrpc":"2.0","id":3,"method":"subscriptions/listen","params":` + string(later) + `}`))
		note(capture.Out, listen, err)
		n, err := jsonrpc.DecodeMessage([]byte(`{"jsonrpc":"2.0","method":"notifications/tasks","params":` + string(later) + `}`))
		note(capture.In, n, err)
		for _, task := range b.Tasks() {
			for i := 1; i < len(task.Seqs); i++ {
				if task.Seqs[i] <= task.Seqs[i-1] {
					t.Fatalf("frames out of order: %v", task.Seqs)
				}
			}
		}
	})
}
