// Package asktest sends a server's question (elicitation, sampling, roots)
// to what answers it in the TUI, from its own goroutine as a session
// would, and checks the answer that goes back.
package asktest

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Answerer is what answers a server's request: the TUI's question bridge.
type Answerer interface {
	HandleServerRequest(ctx context.Context, method string, params json.RawMessage) (any, error)
}

// Answer is what went back to the server.
type Answer struct {
	Result string // the result as JSON, "" with an error
	Err    error
}

// Send asks a the question method with params from a goroutine of its
// own; the answer arrives on the channel.
func Send(ctx context.Context, a Answerer, method, params string) <-chan Answer {
	ch := make(chan Answer, 1)
	go func() {
		res, err := a.HandleServerRequest(ctx, method, json.RawMessage(params))
		h := Answer{Err: err}
		if err == nil {
			raw, merr := json.Marshal(res)
			h.Result, h.Err = string(raw), merr
		}
		ch <- h
	}()
	return ch
}

// Answered waits for the answer; the timeout is a hang guard.
func Answered(t *testing.T, ch <-chan Answer) Answer {
	t.Helper()
	select {
	case h := <-ch:
		return h
	case <-time.After(guard.Hang):
		t.Fatalf("the question was never answered (waited %v)", guard.Hang)
	}
	return Answer{}
}

// NotAnswered checks that nothing went back to the server yet.
func NotAnswered(t *testing.T, ch <-chan Answer) {
	t.Helper()
	select {
	case h := <-ch:
		t.Fatalf("the question was answered: %+v", h)
	default:
	}
}

// WantResult checks an answer's result JSON.
func WantResult(t *testing.T, h Answer, want string) {
	t.Helper()
	if h.Err != nil || h.Result != want {
		t.Errorf("answer %s (err %v)\nwant   %s", h.Result, h.Err, want)
	}
}

// WantRPCError checks that the answer is the JSON-RPC error code/message.
func WantRPCError(t *testing.T, h Answer, code int, message string) {
	t.Helper()
	var e *jsonrpc.Error
	if !errors.As(h.Err, &e) || e.Code != code || e.Message != message {
		t.Errorf("answer %s, err %v; want error %d %q", h.Result, h.Err, code, message)
	}
}

// MustJSON marshals v.
func MustJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}
