package against

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/answers"
	"github.com/mcpscope/mcpscope/internal/app/jsondiff"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// fakePeer answers each method with a canned result.
type fakePeer struct {
	results map[string]string
	sent    []string
}

func (p *fakePeer) Call(_ context.Context, method string, _ any) (json.RawMessage, error) {
	p.sent = append(p.sent, method)
	if method == "boom" {
		return nil, &client.RPCError{Err: &jsonrpc.Error{Code: -32601, Message: "no"}}
	}
	return json.RawMessage(p.results[method]), nil
}

func (p *fakePeer) Interact(context.Context, mcp.InteractionStartParams, answers.Prompts) (json.RawMessage, error) {
	return nil, errors.New("not interactive")
}

func (p *fakePeer) ToolFailure(context.Context, json.RawMessage, []byte) *client.ToolFailure {
	return nil
}

// The replayer sends every step it can, a line each, and fails with a
// MismatchError when an answer differs.
func TestReplayerReportsEachStep(t *testing.T) {
	sess := &Session{steps: []*replayStep{
		{method: "ping", want: answerDocument(json.RawMessage(`{}`), nil)},
		{method: "tools/list", want: answerDocument(json.RawMessage(`{"tools":[{"name":"a"}]}`), nil)},
		{method: "boom", want: answerDocument(nil, &jsonrpc.Error{Code: -32601, Message: "no"})},
		{method: "subscriptions/listen", skip: "a subscription is not sent again"},
	}}
	peer := &fakePeer{results: map[string]string{"ping": `{}`, "tools/list": `{"tools":[{"name":"b"}]}`}}
	var out bytes.Buffer
	err := New(sess, mustOptions(t), &out).Run(context.Background(), peer)
	var mismatch *MismatchError
	if !errors.As(err, &mismatch) || mismatch.Error() != "1 of 3 answers differ from the recording" {
		t.Errorf("error %v", err)
	}
	want := []string{
		"ok      ping",
		"differs tools/list",
		`  tool "a" removed`,
		`  tool "b" added`,
	}
	got := out.String()
	for _, w := range want {
		if !strings.Contains(got, w+"\n") {
			t.Errorf("output lacks %q:\n%s", w, got)
		}
	}
	if !strings.Contains(got, "ok      boom\n") || !strings.Contains(got, "skipped subscriptions/listen: a subscription is not sent again\n") ||
		!strings.HasSuffix(got, "3 requests sent again: 2 ok, 1 differs, 1 skipped\n") {
		t.Errorf("output:\n%s", got)
	}
	if strings.Join(peer.sent, ",") != "ping,tools/list,boom" {
		t.Errorf("sent %v", peer.sent)
	}
}

// A question the recording has no answer for, asked while a step is in
// flight, makes that step differ.
func TestReplayerStopped(t *testing.T) {
	st := &replayStep{method: "tools/call"}
	p := New(&Session{steps: []*replayStep{st}}, mustOptions(t), new(bytes.Buffer))
	other := errors.New("connection lost")
	if got := p.Stopped(other); got != other {
		t.Errorf("another failure became %v", got)
	}
	p.current = st
	err := p.Stopped(&answers.UnansweredError{Method: "elicitation/create", Question: "Name?"})
	var mismatch *MismatchError
	if !errors.As(err, &mismatch) || err.Error() != `the replay stopped: no answer left for elicitation/create "Name?"` {
		t.Errorf("error %v", err)
	}
}

func mustOptions(t *testing.T) jsondiff.Options {
	t.Helper()
	o, err := CompareOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	return o
}
