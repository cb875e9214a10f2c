package question

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/asktest"
	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// TestElicitFormKeys answers a form-mode elicitation with each key path:
// accept with the defaults prefilled, a refused submit then a valid one,
// decline and cancel. Each answer closes the overlay and is named in the
// status bar.
func TestElicitFormKeys(t *testing.T) {
	cases := []struct {
		name string
		keys func(t *testing.T, r *runner, ch <-chan handled)
		want string
	}{
		{"accept", func(_ *testing.T, r *runner, _ <-chan handled) {
			r.TypeText("Ada")
			r.Press("ctrl+s")
		}, `{"action":"accept","content":{"name":"Ada","age":30,"check":true,"color":"green"}}`},
		{"refused then accepted", func(t *testing.T, r *runner, ch <-chan handled) {
			r.Press("tab", "backspace", "backspace", "ctrl+s") // name empty, age empty
			asktest.NotAnswered(t, ch)
			if Waiting(r.m.open) != 1 || !strings.Contains(r.ScreenText(), "required") {
				t.Fatalf("a refused submit must stay and say why; screen:\n%s", r.ScreenText())
			}
			r.TypeText("Bo") // the refusal focused the name
			r.Press("ctrl+s")
		}, `{"action":"accept","content":{"name":"Bo","check":true,"color":"green"}}`},
		{"decline", func(_ *testing.T, r *runner, _ <-chan handled) { r.Press("ctrl+d") }, `{"action":"decline"}`},
		{"cancel", func(_ *testing.T, r *runner, _ <-chan handled) { r.Press("esc") }, `{"action":"cancel"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, r, b := newTestModel(t, 100, 30)
			ch := ask(t, r, b, context.Background(), mcp.MethodElicitationCreate, screentest.ElicitFormParams)
			if s := r.ScreenText(); !strings.Contains(s, "Question · elicitation · form") || !strings.Contains(s, "Who are you?") {
				t.Fatalf("the form is not on screen:\n%s", s)
			}
			c.keys(t, r, ch)
			asktest.WantResult(t, asktest.Answered(t, ch), c.want)
			if m.open != nil {
				t.Errorf("the overlay stayed open after the answer")
			}
			action := c.name
			if action != "decline" && action != "cancel" {
				action = "accept"
			}
			if !strings.Contains(m.note(), "elicitation/create answered "+action) {
				t.Errorf("status %q", m.note())
			}
		})
	}
}

// TestElicitURLConsent: y, n and esc answer accept, decline and cancel;
// the whole URL is on screen however narrow the window, with the
// elicitation id, and no key runs anything (nothing opens a browser).
func TestElicitURLConsent(t *testing.T) {
	for key, action := range map[string]string{"y": "accept", "n": "decline", "esc": "cancel"} {
		t.Run(key, func(t *testing.T) {
			m, r, b := newTestModel(t, 40, 30)
			ch := ask(t, r, b, context.Background(), mcp.MethodElicitationCreate, screentest.ElicitURLParams)
			screen := r.ScreenText()
			joined := strings.ReplaceAll(strings.ReplaceAll(screen, " ", ""), "\n", "")
			if !strings.Contains(joined, "https://auth.example.com/oauth/authorize?client_id=mcpscope-test-client&redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcallback&state=af0ifjsldkj") {
				t.Errorf("the URL is not whole on a 40-column screen:\n%s", screen)
			}
			for _, want := range []string{"el-42", "host: auth.example.com", "never opens it"} {
				if !strings.Contains(screen, want) {
					t.Errorf("screen lacks %q:\n%s", want, screen)
				}
			}
			r.Press("x") // not a consent key
			asktest.NotAnswered(t, ch)
			cmd := m.update(keytest.Press(key))
			if cmd != nil {
				t.Errorf("%s returned a command: the consent must not run anything", key)
			}
			asktest.WantResult(t, asktest.Answered(t, ch), `{"action":"`+action+`"}`)
		})
	}
}

// TestSamplingKeys: a typed reply (two lines, another model name) goes
// back as the assistant's message; an empty reply is refused; ctrl+d and
// esc reject with error -1 as MCP clients do.
func TestSamplingKeys(t *testing.T) {
	t.Run("reply", func(t *testing.T) {
		m, r, b := newTestModel(t, 100, 36)
		ch := ask(t, r, b, context.Background(), mcp.MethodSamplingCreateMessage, screentest.SamplingParams)
		screen := r.ScreenText()
		for _, want := range []string{"system prompt: You are a helpful test server.", "[user] What is the capital of France?",
			"[assistant] [image image/png", "hints claude-3-sonnet, claude · cost 0.3 · speed 0.8 · intelligence 0.5",
			"maxTokens 100 · temperature 0.7 · includeContext thisServer", "model: mcpscope-user"} {
			if !strings.Contains(screen, want) {
				t.Errorf("screen lacks %q:\n%s", want, screen)
			}
		}
		r.Press("ctrl+s")
		asktest.NotAnswered(t, ch)
		if !strings.Contains(r.ScreenText(), "write the reply first") {
			t.Errorf("an empty reply is not refused on screen:\n%s", r.ScreenText())
		}
		r.TypeText("Paris.")
		r.Press("enter")
		r.TypeText("Sure.")
		r.Press("tab")
		for range len(DefaultSamplingModel) {
			r.Press("backspace")
		}
		r.TypeText("manual")
		r.Press("ctrl+s")
		asktest.WantResult(t, asktest.Answered(t, ch), `{"role":"assistant","content":{"text":"Paris.\nSure.","type":"text"},"model":"manual","stopReason":"endTurn"}`)
		if m.open != nil {
			t.Error("the overlay stayed open")
		}
	})
	for key, msg := range map[string]string{"ctrl+d": MsgSamplingDeclined, "esc": MsgSamplingCancelled} {
		t.Run(key, func(t *testing.T) {
			m, r, b := newTestModel(t, 100, 30)
			ch := ask(t, r, b, context.Background(), mcp.MethodSamplingCreateMessage, screentest.SamplingParams)
			r.TypeText("ignored")
			r.Press(key)
			asktest.WantRPCError(t, asktest.Answered(t, ch), CodeUserRejected, msg)
			if !strings.Contains(m.note(), "refused with error -1") {
				t.Errorf("status %q", m.note())
			}
		})
	}
}

// TestQuestionWithdrawn: when the server stops waiting (its request is
// cancelled, the session ends) the question closes with a note, and the
// next one comes on screen.
func TestQuestionWithdrawn(t *testing.T) {
	m, r, b := newTestModel(t, 100, 30)
	ctx, cancel := context.WithCancel(context.Background())
	first := ask(t, r, b, ctx, mcp.MethodElicitationCreate, screentest.ElicitFormParams)
	second := ask(t, r, b, context.Background(), mcp.MethodElicitationCreate, screentest.ElicitURLParams)
	cancel()
	if h := asktest.Answered(t, first); h.Err == nil {
		t.Errorf("a withdrawn question answered %s", h.Result)
	}
	r.Until("the withdrawn question closes", func() bool { return Waiting(m.open) == 1 })
	if !strings.Contains(m.note(), "stopped waiting for the elicitation/create") {
		t.Errorf("status %q", m.note())
	}
	if !strings.Contains(m.open.Title(), "elicitation · url") {
		t.Errorf("the next question is not on screen: %q", m.open.Title())
	}
	r.Press("n")
	asktest.WantResult(t, asktest.Answered(t, second), `{"action":"decline"}`)
	if m.open != nil {
		t.Errorf("the overlay stayed open")
	}
}

// TestQuestionOrigin: the title names the server request a question
// answers, or the input of the input_required result it came in, as the
// session tells the handler.
func TestQuestionOrigin(t *testing.T) {
	params := `{"message":"Step 1: What is your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}`
	m, r, b := newTestModel(t, 120, 30)
	input := client.WithQuestionOrigin(context.Background(), client.QuestionOrigin{RequestID: jsonrpc.IntID(5), InputKey: "step1"})
	server := client.WithQuestionOrigin(context.Background(), client.QuestionOrigin{RequestID: jsonrpc.IntID(7)})
	ask(t, r, b, input, mcp.MethodElicitationCreate, params)
	ask(t, r, b, server, mcp.MethodElicitationCreate, params)
	if title := m.open.Title(); !strings.Contains(title, `input "step1" of the input_required result of request 5`) {
		t.Errorf("the newest frame first: title %q", title)
	}
	r.Press("esc")
	if title := m.open.Title(); !strings.Contains(title, "· request 7") {
		t.Errorf("the older frame next: title %q", title)
	}
	ask(t, r, b, context.Background(), mcp.MethodSamplingCreateMessage, screentest.SamplingParams)
	r.Press("esc")
	if title := m.open.Title(); !strings.Contains(title, "request id unknown") {
		t.Errorf("a question without a frame: title %q", title)
	}
}

// TestQuestionBridgeAnswersAlone: roots/list is answered from the roots
// kept in the UI, other methods are refused, and a bridge with no program
// says so instead of hanging.
func TestQuestionBridgeAnswersAlone(t *testing.T) {
	b := NewBridge(nil)
	res, err := b.HandleServerRequest(context.Background(), mcp.MethodRootsList, nil)
	if got := asktest.MustJSON(t, res); err != nil || got != `{"roots":[]}` {
		t.Errorf("roots/list %s %v", got, err)
	}
	b.SetRoots([]mcp.Root{{URI: "file:///srv/x", Name: "x"}})
	res, _ = b.HandleServerRequest(context.Background(), mcp.MethodRootsList, nil)
	if got := asktest.MustJSON(t, res); got != `{"roots":[{"uri":"file:///srv/x","name":"x"}]}` {
		t.Errorf("roots/list %s", got)
	}
	_, err = b.HandleServerRequest(context.Background(), "tasks/get", nil)
	asktest.WantRPCError(t, handled{Err: err}, mcp.CodeMethodNotFound, "mcpscope does not answer tasks/get")
	_, err = b.HandleServerRequest(context.Background(), mcp.MethodElicitationCreate, rawJSON(screentest.ElicitFormParams))
	asktest.WantRPCError(t, handled{Err: err}, mcp.CodeInternalError, "mcpscope cannot ask the user: the TUI is not running")
}

// TestQuestionMalformedParams: params the views cannot read are refused
// with -32602 at once, and the error is shown.
func TestQuestionMalformedParams(t *testing.T) {
	m, r, b := newTestModel(t, 100, 30)
	for _, params := range []string{`{"message":3}`, `{"mode":"url","message":"no url"}`, `{"mode":"carrier-pigeon","message":"?"}`,
		`{"message":"x","requestedSchema":[1,2]}`} {
		ch := make(chan handled, 1)
		go func() {
			_, err := b.HandleServerRequest(context.Background(), mcp.MethodElicitationCreate, rawJSON(params))
			ch <- handled{Err: err}
		}()
		msg := <-r.Msgs
		m.update(msg)
		var e *jsonrpc.Error
		if h := asktest.Answered(t, ch); !errors.As(h.Err, &e) || e.Code != mcp.CodeInvalidParams {
			t.Errorf("%s: answered %v", params, h.Err)
		}
		if m.open != nil || !strings.Contains(m.err, "cannot be shown") {
			t.Errorf("%s: open %v, error %q", params, m.open, m.err)
		}
	}
}
