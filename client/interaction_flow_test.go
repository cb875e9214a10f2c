package client

import (
	"testing"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// The three flows of seed 002's "Message Flow", checked on the wire.

// TestInteractionSimpleFlow: start → initialPrompt, respond → accepted,
// then interaction.complete answered with the final result.
func TestInteractionSimpleFlow(t *testing.T) {
	proceed := make(chan struct{})
	s, _, done := interactiveServer(t, nil, Options{}, func(w *wire) {
		m := w.request(mcp.MethodInteractionStart)
		w.wantParams(m, `\{"toolName":"booking","initialParams":\{"from":"OSL"\},"timeout":300000\}`)
		w.s.rawResult(*m.ID, `{"sessionId":"session_abc123","state":"idle","initialPrompt":{"type":"text","message":"Enter destination:","validation":{"required":true}}}`)
		m = w.request(mcp.MethodInteractionRespond)
		w.wantParams(m, `\{"sessionId":"session_abc123","response":\{"value":"Paris","timestamp":[1-9][0-9]{12}\}\}`)
		w.s.rawResult(*m.ID, `{"accepted":true,"validation":{"valid":true}}`)
		<-proceed
		ack := w.ask(mcp.MethodInteractionComplete, raw(`{"sessionId":"session_abc123","result":{"success":true,"data":{"city":"Paris"}},"summary":"Completed successfully"}`))
		w.wantResult(ack, `{"success":true,"finalResult":{"success":true,"data":{"city":"Paris"}}}`)
	})
	ctx := testCtx(t)
	i, err := s.StartInteraction(ctx, mcp.InteractionStartParams{ToolName: "booking", InitialParams: raw(`{"from":"OSL"}`), Timeout: 300000})
	if err != nil {
		t.Fatal(err)
	}
	if i.ID() != "session_abc123" || i.ToolName() != "booking" {
		t.Fatalf("interaction %q of %q", i.ID(), i.ToolName())
	}
	ev := nextEvent(t, i)
	wantPrompt(t, ev, EventPrompt, "Enter destination:")
	if ev.Prompt.Validation == nil || !ev.Prompt.Validation.Required || i.State() != mcp.InteractionWaitingUser {
		t.Fatalf("initial prompt %+v in state %s", ev.Prompt, i.State())
	}
	res, err := i.Respond(ctx, raw(`"Paris"`))
	if err != nil || !res.Accepted {
		t.Fatalf("respond: %+v %v", res, err)
	}
	if st := i.State(); st != mcp.InteractionProcessing {
		t.Fatalf("state %s after an accepted answer, want processing", st)
	}
	close(proceed)
	ev = nextEvent(t, i)
	if ev.Kind != EventComplete || ev.Complete == nil || ev.Complete.Summary != "Completed successfully" || string(ev.Complete.Result) != `{"success":true,"data":{"city":"Paris"}}` {
		t.Fatalf("event %+v, want the completion", ev)
	}
	wantClosed(t, i)
	if st := i.State(); st != mcp.InteractionCompleted {
		t.Fatalf("state %s, want completed", st)
	}
	waitDone(t, done)
}

// TestInteractionWizardFlow: start → sessionId only, then two prompts and
// two answers, then the completion.
func TestInteractionWizardFlow(t *testing.T) {
	s, _, done := interactiveServer(t, nil, Options{}, func(w *wire) {
		m := w.request(mcp.MethodInteractionStart)
		w.wantParams(m, `\{"toolName":"register_user"\}`)
		w.s.rawResult(*m.ID, `{"sessionId":"s-wiz","state":"idle"}`)
		for _, step := range []struct{ prompt, answer string }{
			{`"type":"text","message":"Enter name"`, `"John"`},
			{`"type":"text","message":"Enter email"`, `"john@example.com"`},
		} {
			ack := w.ask(mcp.MethodInteractionPrompt, raw(`{"sessionId":"s-wiz","prompt":{`+step.prompt+`},"progress":{"current":1,"total":2}}`))
			w.wantResult(ack, `{"acknowledged":true}`)
			m = w.request(mcp.MethodInteractionRespond)
			w.wantParams(m, `\{"sessionId":"s-wiz","response":\{"value":`+step.answer+`,"timestamp":\d+\}\}`)
			w.s.rawResult(*m.ID, `{"accepted":true}`)
		}
		ack := w.ask(mcp.MethodInteractionComplete, raw(`{"sessionId":"s-wiz","result":{"registered":"John"},"summary":"registration complete"}`))
		w.wantResult(ack, `{"success":true,"finalResult":{"registered":"John"}}`)
	})
	ctx := testCtx(t)
	i, err := s.StartInteraction(ctx, mcp.InteractionStartParams{ToolName: "register_user"})
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct{ message, answer string }{{"Enter name", `"John"`}, {"Enter email", `"john@example.com"`}} {
		ev := nextEvent(t, i)
		wantPrompt(t, ev, EventPrompt, step.message)
		if ev.Progress == nil || ev.Progress.Total != 2 {
			t.Fatalf("progress %+v", ev.Progress)
		}
		if res, err := i.Respond(ctx, raw(step.answer)); err != nil || !res.Accepted {
			t.Fatalf("respond %s: %+v %v", step.answer, res, err)
		}
	}
	if ev := nextEvent(t, i); ev.Kind != EventComplete || ev.Complete.Summary != "registration complete" {
		t.Fatalf("event %+v, want the completion", ev)
	}
	wantClosed(t, i)
	waitDone(t, done)
}

// TestInteractionValidationRetry: a refused answer puts the state back to
// waiting_user with the refusal on Prompt; the server's re-sent prompt
// carries the error, and the second answer is accepted.
func TestInteractionValidationRetry(t *testing.T) {
	proceed := make(chan struct{})
	s, _, done := interactiveServer(t, nil, Options{}, func(w *wire) {
		m := w.request(mcp.MethodInteractionStart)
		w.s.rawResult(*m.ID, `{"sessionId":"s-mail","state":"idle"}`)
		w.wantResult(w.ask(mcp.MethodInteractionPrompt, raw(`{"sessionId":"s-mail","prompt":{"type":"text","message":"Enter email"}}`)), `{"acknowledged":true}`)
		m = w.request(mcp.MethodInteractionRespond)
		w.wantParams(m, `\{"sessionId":"s-mail","response":\{"value":"invalid-email","timestamp":\d+\}\}`)
		w.s.rawResult(*m.ID, `{"accepted":false,"validation":{"valid":false,"error":"Invalid format","suggestion":"Use name@domain"}}`)
		<-proceed
		w.wantResult(w.ask(mcp.MethodInteractionPrompt, raw(`{"sessionId":"s-mail","prompt":{"type":"text","message":"Enter email","error":"Invalid format","suggestion":"Use name@domain"}}`)), `{"acknowledged":true}`)
		m = w.request(mcp.MethodInteractionRespond)
		w.wantParams(m, `\{"sessionId":"s-mail","response":\{"value":"valid@email.com","timestamp":\d+\}\}`)
		w.s.rawResult(*m.ID, `{"accepted":true,"validation":{"valid":true}}`)
	})
	ctx := testCtx(t)
	i, err := s.StartInteraction(ctx, mcp.InteractionStartParams{ToolName: "register_user"})
	if err != nil {
		t.Fatal(err)
	}
	wantPrompt(t, nextEvent(t, i), EventPrompt, "Enter email")
	res, err := i.Respond(ctx, raw(`"invalid-email"`))
	if err != nil || res.Accepted || res.Validation == nil || res.Validation.Error != "Invalid format" {
		t.Fatalf("respond: %+v %v", res, err)
	}
	if st := i.State(); st != mcp.InteractionWaitingUser {
		t.Fatalf("state %s after a refusal, want waiting_user", st)
	}
	if p := i.Prompt(); p == nil || p.Message != "Enter email" || p.Error != "Invalid format" || p.Suggestion != "Use name@domain" {
		t.Fatalf("prompt after the refusal %+v", p)
	}
	close(proceed)
	ev := nextEvent(t, i)
	wantPrompt(t, ev, EventPrompt, "Enter email")
	if ev.Prompt.Error != "Invalid format" || ev.Prompt.Suggestion != "Use name@domain" {
		t.Fatalf("retry prompt %+v", ev.Prompt)
	}
	if res, err := i.Respond(ctx, raw(`"valid@email.com"`)); err != nil || !res.Accepted {
		t.Fatalf("second respond: %+v %v", res, err)
	}
	if p := i.Prompt(); p.Error != "Invalid format" {
		t.Fatalf("the re-sent prompt lost its own error: %+v", p)
	}
	waitDone(t, done)
}
