package against

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/answers"
	"github.com/mcpscope/mcpscope/internal/app/junit"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// tickClock returns a clock that moves on by step at each reading.
func tickClock(step time.Duration) func() time.Time {
	now := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	return func() time.Time {
		now = now.Add(step)
		return now
	}
}

// junitReplayer is a replayer of steps timed by a ticking clock.
func junitReplayer(t *testing.T, steps ...*replayStep) *Replayer {
	p := New(&Session{steps: steps}, mustOptions(t), new(bytes.Buffer))
	p.clock = tickClock(5 * time.Millisecond)
	p.began = p.clock()
	return p
}

// A fixed mismatch as JUnit: the differing answer a failure with its
// difference lines, the equal ones passed, the unsendable one skipped.
func TestJUnitMismatchGolden(t *testing.T) {
	p := junitReplayer(t,
		&replayStep{method: "ping", want: answerDocument(json.RawMessage(`{}`), nil)},
		&replayStep{method: "tools/list", want: answerDocument(json.RawMessage(`{"tools":[{"name":"echo","description":"Answer the message"}]}`), nil)},
		&replayStep{method: "boom", params: json.RawMessage(`{"name":"echo"}`), want: answerDocument(nil, &jsonrpc.Error{Code: -32601, Message: "no"})},
		&replayStep{method: "subscriptions/listen", skip: "a subscription is not sent again"},
	)
	peer := &fakePeer{results: map[string]string{"ping": `{}`, "tools/list": `{"tools":[{"name":"echo","description":"Says \u001b[31mit"}]}`}}
	err := p.Run(context.Background(), peer)
	b, merr := junit.Marshal(p.JUnit("session.mcpscope.jsonl", err))
	if merr != nil {
		t.Fatal(merr)
	}
	goldentest.Check(t, "mismatch.junit.xml", string(b))
}

// A run that stops on a failed send: that step is the error, the steps
// after it are skipped as not reached; a run that never sent a step puts
// its error on the first one to send.
func TestJUnitStoppedRun(t *testing.T) {
	steps := func() []*replayStep {
		return []*replayStep{
			{method: "subscriptions/listen", skip: "a subscription is not sent again"},
			{method: "ping", want: answerDocument(json.RawMessage(`{}`), nil)},
			{method: "lost", want: answerDocument(json.RawMessage(`{}`), nil)},
			{method: "ping", want: answerDocument(json.RawMessage(`{}`), nil)},
		}
	}
	lost := errors.New("connection lost: the server exited")
	p := junitReplayer(t, steps()...)
	err := p.Run(context.Background(), lostPeer{lost})
	if !errors.Is(err, lost) {
		t.Fatalf("run: %v", err)
	}
	s := p.JUnit("r", err)
	if len(s.Cases) != 4 || s.Cases[0].Skipped == nil || s.Cases[1].Failure != nil || s.Cases[1].Error != nil ||
		s.Cases[2].Error == nil || s.Cases[2].Error.Message != lost.Error() || s.Cases[2].Time <= 0 ||
		s.Cases[3].Skipped == nil || s.Cases[3].Skipped.Message != notReached || s.Cases[2].Name != "#3 lost" {
		t.Errorf("suite %+v", s)
	}

	p = junitReplayer(t, steps()...)
	s = p.JUnit("r", lost) // the connection failed before the first step
	if s.Cases[0].Skipped == nil || s.Cases[1].Error == nil || s.Cases[2].Skipped == nil || s.Cases[3].Skipped == nil {
		t.Errorf("suite %+v", s)
	}
}

// lostPeer answers ping and loses the connection on any other method.
type lostPeer struct{ err error }

func (p lostPeer) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if method == "ping" {
		return json.RawMessage(`{}`), nil
	}
	return nil, p.err
}

func (p lostPeer) Interact(ctx context.Context, start mcp.InteractionStartParams, a answers.Prompts) (json.RawMessage, error) {
	return nil, p.err
}

func (p lostPeer) ToolFailure(context.Context, json.RawMessage, []byte) *client.ToolFailure {
	return nil
}
