package ui

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/flowtest"
	"github.com/mcpscope/mcpscope/proto"
)

// handled is what the bridge answered the session with.
type handled struct {
	result string // the result as JSON, "" with an error
	err    error
}

// questionModel is a model of st (a fresh store when nil) with a bridge
// whose questions reach the model through a cmdRunner, sized w×h.
func questionModel(t *testing.T, st *capture.Store, w, h int) (*Model, *cmdRunner, *QuestionBridge) {
	t.Helper()
	if st == nil {
		st = capture.NewStore(capture.Config{})
	}
	m := newTestModel(t, st, w, h)
	r := newRunner(t, m)
	b := NewQuestionBridge([]proto.Root{{URI: "file:///srv/a", Name: "a"}})
	b.SetSend(func(msg tea.Msg) {
		select {
		case r.Msgs <- msg:
		case <-r.Stop:
		}
	})
	m.cfg.Questions = b
	return m, r, b
}

// openQuestions is how many questions the model holds.
func openQuestions(m *Model) int {
	h, ok := m.overlay.(*questionHost)
	if !ok {
		return 0
	}
	return len(h.queue)
}

// ask sends a question through the bridge, as the session would from its
// own goroutine, and waits until the model holds it.
func ask(t *testing.T, r *cmdRunner, b *QuestionBridge, ctx context.Context, method, params string) <-chan handled {
	t.Helper()
	before := openQuestions(r.m)
	ch := make(chan handled, 1)
	go func() {
		res, err := b.HandleServerRequest(ctx, method, json.RawMessage(params))
		h := handled{err: err}
		if err == nil {
			raw, merr := json.Marshal(res)
			h.result, h.err = string(raw), merr
		}
		ch <- h
	}()
	r.Until("the question is open", func() bool { return openQuestions(r.m) > before })
	return ch
}

// answered waits for the bridge's answer; the timeout is a hang guard.
func answered(t *testing.T, ch <-chan handled) handled {
	t.Helper()
	select {
	case h := <-ch:
		return h
	case <-time.After(flowtest.HangGuard):
		t.Fatal("the question was never answered")
	}
	return handled{}
}

// notAnswered checks that nothing went back to the server yet.
func notAnswered(t *testing.T, ch <-chan handled) {
	t.Helper()
	select {
	case h := <-ch:
		t.Fatalf("the question was answered: %+v", h)
	default:
	}
}

// wantResult checks an answer's result JSON.
func wantResult(t *testing.T, h handled, want string) {
	t.Helper()
	if h.err != nil || h.result != want {
		t.Errorf("answer %s (err %v)\nwant   %s", h.result, h.err, want)
	}
}

// wantRPCError checks that the answer is the JSON-RPC error code/message.
func wantRPCError(t *testing.T, h handled, code int, message string) {
	t.Helper()
	var e *proto.Error
	if !errors.As(h.err, &e) || e.Code != code || e.Message != message {
		t.Errorf("answer %s, err %v; want error %d %q", h.result, h.err, code, message)
	}
}

// formSchema is a requestedSchema with one field of each primitive kind
// and a required name.
const formSchema = `{"type":"object","properties":{
	"name":{"type":"string","title":"Name"},
	"age":{"type":"integer","minimum":0,"default":30},
	"check":{"type":"boolean","default":true},
	"color":{"type":"string","enum":["red","green"],"default":"green"}},
	"required":["name"]}`

// formParams are the params of a form-mode elicitation/create.
const formParams = `{"message":"Who are you?","requestedSchema":` + formSchema + `}`

// urlParams are the params of a URL-mode elicitation/create with a long URL.
const urlParams = `{"mode":"url","message":"Sign in to continue","elicitationId":"el-42",` +
	`"url":"https://auth.example.com/oauth/authorize?client_id=mcpscope-test-client&redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcallback&state=af0ifjsldkj"}`

// samplingParams are the params of a sampling/createMessage with every
// member the view shows.
const samplingParams = `{"messages":[
	{"role":"user","content":{"type":"text","text":"What is the capital of France?"}},
	{"role":"assistant","content":[{"type":"text","text":"Let me look."},{"type":"image","mimeType":"image/png","data":"iVBORw0KGgo="}]},
	{"role":"user","content":{"type":"text","text":"Answer in one word."}}],
	"systemPrompt":"You are a helpful test server.",
	"modelPreferences":{"hints":[{"name":"claude-3-sonnet"},{"name":"claude"}],"costPriority":0.3,"speedPriority":0.8,"intelligencePriority":0.5},
	"includeContext":"thisServer","temperature":0.7,"maxTokens":100,"stopSequences":["\n\n"]}`

// rawJSON is s as a raw JSON value.
func rawJSON(s string) json.RawMessage { return json.RawMessage(s) }

// mustJSON marshals v.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// errorAs is errors.As.
func errorAs(err error, target any) bool { return errors.As(err, target) }
