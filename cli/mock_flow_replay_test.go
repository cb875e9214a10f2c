package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/recordings"
)

// flowRecordedAnswers answers a request with the answer a recording holds for
// the same method and params (_meta aside), under the new id; it stands
// for the mock engine in the tests of serving over MCP-Flow.
type flowRecordedAnswers map[string]*jsonrpc.Message

// readFlowRecordedAnswers reads the answers of the recording at path.
func readFlowRecordedAnswers(t *testing.T, path string) flowRecordedAnswers {
	t.Helper()
	rd, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	asked := map[string]string{} // request id → key
	answers := flowRecordedAnswers{}
	_, err = recordings.Walk(rd, func(rec *recordings.Record) error {
		if rec.Kind != recordings.RecFrame || rec.Frame.Msg == nil || rec.Frame.Msg.ID == nil {
			return nil
		}
		m := rec.Frame.Msg
		switch {
		case rec.Frame.Dir == capture.Out && m.Kind() == jsonrpc.KindRequest:
			asked[m.ID.Key()] = flowAnswerKey(m)
		case rec.Frame.Dir == capture.In && m.IsResponse():
			if k, ok := asked[m.ID.Key()]; ok {
				answers[k] = m
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return answers
}

// flowAnswerKey is a request's method and its params, less _meta; initialize
// by its method alone (the transports offer different things).
func flowAnswerKey(m *jsonrpc.Message) string {
	if m.Method == "initialize" {
		return m.Method
	}
	var p map[string]any
	_ = json.Unmarshal(m.Params, &p)
	delete(p, "_meta")
	b, _ := json.Marshal(p)
	return m.Method + " " + string(b)
}

// Handle answers a request from the recording.
func (a flowRecordedAnswers) Handle(msg []byte) [][]byte {
	m, err := jsonrpc.DecodeMessage(msg)
	if err != nil || m.Kind() != jsonrpc.KindRequest {
		return nil
	}
	rec, ok := a[flowAnswerKey(m)]
	if !ok {
		rec = jsonrpc.NewErrorResponse(jsonrpc.ID{}, -32601, "not in the recording: "+m.Method, nil)
	}
	answer := *rec
	answer.ID, answer.Raw = m.ID, nil
	b, err := answer.EncodeJSON()
	if err != nil {
		return nil
	}
	return [][]byte{b}
}

// A session recorded against the demo over stdio, served over MCP-Flow
// from its answers and sent again with replay --against: no difference,
// in JSON and in CBOR.
func TestMockFlowReplayAgainst(t *testing.T) {
	t.Parallel()
	answers := writeAnswers(t, `
steps:
  - {method: tools/list}
  - {method: prompts/list}
  - {method: tools/call, params: {name: echo, arguments: {message: "héllo"}}}
  - {method: resources/list}
`)
	rec := filepath.Join(t.TempDir(), "demo.mcpscope.jsonl")
	mcpscope(t, append([]string{"script", "--answers", answers, "--record", rec}, demoServer(t)...)...).mustExit(t, ExitOK)
	target, hash := mockFlowOf(t, readFlowRecordedAnswers(t, rec))
	for _, enc := range []string{"json", "cbor"} {
		r := mcpscope(t, "replay", rec, "--against", "--encoding", enc, "--cert-hash", hash, target)
		r.mustExit(t, ExitOK)
		if !strings.HasSuffix(r.stdout, "4 requests sent again: 4 ok, 0 differ, 0 skipped\n") {
			t.Errorf("%s: stdout:\n%s\nstderr:\n%s", enc, r.stdout, r.stderr)
		}
	}
}
