package client

import (
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// TestInteractionPromptOvertakesStart: a prompt that arrives before the
// start result (as on transports without one order) waits for it instead
// of being answered -32001, and is the first event; with no start in
// flight the same prompt is -32001.
func TestInteractionPromptOvertakesStart(t *testing.T) {
	s, _, done := interactiveServer(t, nil, Options{}, func(w *wire) {
		m := w.request(mcp.MethodInteractionStart)
		w.s.request(jsonrpc.IntID(7), mcp.MethodInteractionPrompt, raw(`{"sessionId":"s-early","prompt":{"type":"text","message":"first"}}`))
		w.s.request(jsonrpc.IntID(8), mcp.MethodInteractionPrompt, raw(`{"sessionId":"s-other","prompt":{"type":"text","message":"other"}}`))
		w.s.rawResult(*m.ID, `{"sessionId":"s-early","state":"idle"}`)
		for _, want := range []struct {
			id   int64
			code int
		}{{7, 0}, {8, mcp.CodeSessionNotFound}} {
			ans := w.take("an answer", func(m *jsonrpc.Message) bool {
				return m.ID != nil && m.Method == "" && m.ID.Key() == jsonrpc.IntID(want.id).Key()
			})
			if want.code == 0 {
				w.wantResult(ans, `{"acknowledged":true}`)
			} else {
				w.wantError(ans, want.code)
			}
		}
	})
	i, err := s.StartInteraction(testCtx(t), mcp.InteractionStartParams{ToolName: "t"})
	if err != nil {
		t.Fatal(err)
	}
	wantPrompt(t, nextEvent(t, i), EventPrompt, "first")
	waitDone(t, done)
}

// TestInteractionContinue: a continue without nextPrompt moves idle to
// active and reports its message and expiry (a timeout warning); one with
// a nextPrompt is answered like a prompt.
func TestInteractionContinue(t *testing.T) {
	s, _, done := interactiveServer(t, nil, Options{}, func(w *wire) {
		m := w.request(mcp.MethodInteractionStart)
		w.s.rawResult(*m.ID, `{"sessionId":"s-k","state":"idle"}`)
		w.wantResult(w.ask(mcp.MethodInteractionContinue, raw(`{"sessionId":"s-k","progress":{"current":1,"total":3},"message":"session expires in 10 s","expiresAt":1704067210000}`)), `{"acknowledged":true}`)
		w.wantResult(w.ask(mcp.MethodInteractionContinue, raw(`{"sessionId":"s-k","nextPrompt":{"type":"choice","message":"Class?","choices":[{"value":"economy","label":"Economy"}]},"progress":{"current":2,"total":3}}`)), `{"acknowledged":true}`)
	})
	i, err := s.StartInteraction(testCtx(t), mcp.InteractionStartParams{ToolName: "t"})
	if err != nil {
		t.Fatal(err)
	}
	ev := nextEvent(t, i)
	if ev.Kind != EventContinue || ev.Prompt != nil || ev.Message != "session expires in 10 s" || !ev.ExpiresAt.Equal(time.UnixMilli(1704067210000)) || ev.Progress.Current != 1 {
		t.Fatalf("event %+v, want the timeout warning", ev)
	}
	ev = nextEvent(t, i)
	wantPrompt(t, ev, EventContinue, "Class?")
	if len(ev.Prompt.Choices) != 1 || string(ev.Prompt.Choices[0].Value) != `"economy"` || i.State() != mcp.InteractionWaitingUser {
		t.Fatalf("next prompt %+v in state %s", ev.Prompt, i.State())
	}
	waitDone(t, done)
	if i.State() != mcp.InteractionWaitingUser {
		t.Fatalf("state %s", i.State())
	}
}

// TestInteractionStatelessToken: a stateless server's sessionId is a token
// that changes each turn; prompts are routed by its inner sessionId and
// the next answer carries the newest token.
func TestInteractionStatelessToken(t *testing.T) {
	key := []byte("stateless-demo-key")
	tok := func(step int) string {
		s, err := mcp.SignSessionToken("st-1", map[string]int{"step": step}, key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	t0, t1 := tok(0), tok(1)
	s, _, done := interactiveServer(t, nil, Options{}, func(w *wire) {
		m := w.request(mcp.MethodInteractionStart)
		w.s.result(*m.ID, mcp.InteractionStartResult{SessionID: t0, State: mcp.InteractionIdle,
			InitialPrompt: &mcp.InteractionPrompt{Type: mcp.PromptText, Message: "Destination?"}})
		m = w.request(mcp.MethodInteractionRespond)
		w.wantParams(m, `\{"sessionId":"`+t0+`","response":\{"value":"Rome","timestamp":\d+\}\}`)
		w.s.rawResult(*m.ID, `{"accepted":true}`)
		w.wantResult(w.ask(mcp.MethodInteractionPrompt, mcp.InteractionPromptParams{SessionID: t1,
			Prompt: mcp.InteractionPrompt{Type: mcp.PromptNumber, Message: "Travellers?"}}), `{"acknowledged":true}`)
		m = w.request(mcp.MethodInteractionRespond)
		w.wantParams(m, `\{"sessionId":"`+t1+`","response":\{"value":2,"timestamp":\d+\}\}`)
		w.s.rawResult(*m.ID, `{"accepted":true}`)
	})
	ctx := testCtx(t)
	i, err := s.StartInteraction(ctx, mcp.InteractionStartParams{ToolName: "book_trip_stateless"})
	if err != nil {
		t.Fatal(err)
	}
	wantPrompt(t, nextEvent(t, i), EventPrompt, "Destination?")
	if _, err := i.Respond(ctx, raw(`"Rome"`)); err != nil {
		t.Fatal(err)
	}
	wantPrompt(t, nextEvent(t, i), EventPrompt, "Travellers?")
	if i.ID() != t1 {
		t.Fatalf("id %q, want the newest token", i.ID())
	}
	if _, err := i.Respond(ctx, raw(`2`)); err != nil {
		t.Fatal(err)
	}
	waitDone(t, done)
}

// TestInteractionEventsOverflow: a reader that never reads does not block
// the session; past the queue the interaction ends in error, the server
// is told, and later requests for it are refused.
func TestInteractionEventsOverflow(t *testing.T) {
	const sent = interactionEventQueue + 10
	s, _, done := interactiveServer(t, nil, Options{}, func(w *wire) {
		m := w.request(mcp.MethodInteractionStart)
		w.s.rawResult(*m.ID, `{"sessionId":"s-o","state":"active"}`)
		for k := range sent {
			ans := w.ask(mcp.MethodInteractionContinue, raw(`{"sessionId":"s-o","message":"tick"}`))
			switch {
			case k < interactionEventQueue:
				w.wantResult(ans, `{"acknowledged":true}`)
			case k == interactionEventQueue:
				w.wantError(ans, mcp.CodeInternalError)
			default:
				w.wantError(ans, mcp.CodeInvalidStateTransition)
			}
		}
	})
	i, err := s.StartInteraction(testCtx(t), mcp.InteractionStartParams{ToolName: "t"})
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, done)
	for k := range interactionEventQueue {
		if ev := nextEvent(t, i); ev.Kind != EventContinue {
			t.Fatalf("event %d is %v", k, ev.Kind)
		}
	}
	if ev := nextEvent(t, i); ev.Kind != EventError || ev.Err == nil {
		t.Fatalf("event %+v, want the overflow error", ev)
	}
	wantClosed(t, i)
	if i.State() != mcp.InteractionError {
		t.Fatalf("state %s, want error", i.State())
	}
}

// TestInteractionStartStates: the start result's state is applied when the
// table allows it from idle, refused (EventIllegal) when not, and ends the
// interaction when it is error.
func TestInteractionStartStates(t *testing.T) {
	for _, c := range []struct {
		state mcp.InteractionState
		want  mcp.InteractionState
		event InteractionEventKind
	}{
		{mcp.InteractionActive, mcp.InteractionActive, 0},
		{mcp.InteractionProcessing, mcp.InteractionIdle, EventIllegal},
		{mcp.InteractionError, mcp.InteractionError, EventError},
	} {
		t.Run(string(c.state), func(t *testing.T) {
			s, _, done := interactiveServer(t, nil, Options{}, func(w *wire) {
				m := w.request(mcp.MethodInteractionStart)
				w.s.rawResult(*m.ID, `{"sessionId":"s","state":"`+string(c.state)+`"}`)
			})
			i, err := s.StartInteraction(testCtx(t), mcp.InteractionStartParams{ToolName: "t"})
			if err != nil {
				t.Fatal(err)
			}
			waitDone(t, done)
			if i.State() != c.want {
				t.Fatalf("state %s, want %s", i.State(), c.want)
			}
			select {
			case ev := <-i.Events():
				if ev.Kind != c.event {
					t.Fatalf("event %+v, want %v", ev, c.event)
				}
			default:
				if c.event != 0 {
					t.Fatalf("no event, want %v", c.event)
				}
			}
		})
	}
}
