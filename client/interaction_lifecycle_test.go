package client

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// TestInteractionIllegalTransition: a completion while idle and a prompt
// after the completion are answered -32003; the first is shown as an
// EventIllegal and the state does not change.
func TestInteractionIllegalTransition(t *testing.T) {
	proceed := make(chan struct{})
	s, _, done := interactiveServer(t, nil, Options{}, func(w *wire) {
		m := w.request(mcp.MethodInteractionStart)
		w.s.rawResult(*m.ID, `{"sessionId":"s-ill","state":"idle"}`)
		ans := w.ask(mcp.MethodInteractionComplete, raw(`{"sessionId":"s-ill","result":{}}`))
		w.wantError(ans, mcp.CodeInvalidStateTransition)
		<-proceed
		w.wantResult(w.ask(mcp.MethodInteractionPrompt, raw(`{"sessionId":"s-ill","prompt":{"type":"confirm","message":"Sure?"}}`)), `{"acknowledged":true}`)
		m = w.request(mcp.MethodInteractionRespond)
		w.s.rawResult(*m.ID, `{"accepted":true}`)
		w.wantResult(w.ask(mcp.MethodInteractionComplete, raw(`{"sessionId":"s-ill"}`)), `{"success":true}`)
		w.wantError(w.ask(mcp.MethodInteractionPrompt, raw(`{"sessionId":"s-ill","prompt":{"type":"text","message":"again"}}`)), mcp.CodeInvalidStateTransition)
	})
	ctx := testCtx(t)
	i, err := s.StartInteraction(ctx, mcp.InteractionStartParams{ToolName: "t"})
	if err != nil {
		t.Fatal(err)
	}
	ev := nextEvent(t, i)
	if ev.Kind != EventIllegal || ev.From != mcp.InteractionIdle || ev.To != mcp.InteractionCompleted || ev.Message == "" {
		t.Fatalf("event %+v, want idle → completed refused", ev)
	}
	if st := i.State(); st != mcp.InteractionIdle {
		t.Fatalf("state %s after a refused transition, want idle", st)
	}
	close(proceed)
	wantPrompt(t, nextEvent(t, i), EventPrompt, "Sure?")
	if _, err := i.Respond(ctx, raw(`true`)); err != nil {
		t.Fatal(err)
	}
	if ev := nextEvent(t, i); ev.Kind != EventComplete {
		t.Fatalf("event %+v, want the completion", ev)
	}
	wantClosed(t, i)
	waitDone(t, done)
}

// TestInteractionCancelAndGetState: getState decodes the seed's answer;
// Cancel sends interaction.cancel, ends the interaction and closes its
// events; a later prompt is refused.
func TestInteractionCancelAndGetState(t *testing.T) {
	s, _, done := interactiveServer(t, nil, Options{}, func(w *wire) {
		m := w.request(mcp.MethodInteractionStart)
		w.s.rawResult(*m.ID, `{"sessionId":"s-c","state":"idle","initialPrompt":{"type":"date","message":"Select date:"},"expiresAt":1704067500000}`)
		m = w.request(mcp.MethodInteractionGetState)
		w.wantParams(m, `\{"sessionId":"s-c"\}`)
		w.s.rawResult(*m.ID, `{"sessionId":"s-c","state":"waiting_user","metadata":{"createdAt":1704067200000,"lastActivityAt":1704067300000,"toolName":"booking"},"history":[{"turnId":0,"prompt":{},"response":{},"timestamp":1704067250000}],"currentPrompt":{"type":"date","message":"Select date:"},"accumulatedData":{"k":1}}`)
		m = w.request(mcp.MethodInteractionCancel)
		w.wantParams(m, `\{"sessionId":"s-c","reason":"User cancelled"\}`)
		w.s.rawResult(*m.ID, `{"cancelled":true}`)
		w.wantError(w.ask(mcp.MethodInteractionPrompt, raw(`{"sessionId":"s-c","prompt":{"type":"text","message":"late"}}`)), mcp.CodeInvalidStateTransition)
	})
	ctx := testCtx(t)
	i, err := s.StartInteraction(ctx, mcp.InteractionStartParams{ToolName: "booking"})
	if err != nil {
		t.Fatal(err)
	}
	if want := time.UnixMilli(1704067500000); !i.ExpiresAt().Equal(want) {
		t.Fatalf("expires at %v, want %v", i.ExpiresAt(), want)
	}
	if ev := nextEvent(t, i); !ev.ExpiresAt.Equal(time.UnixMilli(1704067500000)) {
		t.Fatalf("event expiry %v", ev.ExpiresAt)
	}
	st, err := i.GetState(ctx)
	if err != nil || st.State != mcp.InteractionWaitingUser || st.Metadata.ToolName != "booking" || len(st.History) != 1 ||
		st.History[0].Timestamp != 1704067250000 || st.CurrentPrompt == nil || string(st.AccumulatedData) != `{"k":1}` {
		t.Fatalf("getState %+v %v", st, err)
	}
	if err := i.Cancel(ctx, "User cancelled"); err != nil {
		t.Fatal(err)
	}
	wantClosed(t, i)
	if i.State() != mcp.InteractionCancelled {
		t.Fatalf("state %s, want cancelled", i.State())
	}
	if err := i.Cancel(ctx, "again"); err == nil {
		t.Fatal("a second Cancel succeeded")
	}
	if _, err := i.Respond(ctx, raw(`"x"`)); err == nil {
		t.Fatal("Respond after Cancel succeeded")
	}
	waitDone(t, done)
}

// TestInteractionConnectionLost: every open interaction gets an EventError
// carrying the ConnectionError, then its events close.
func TestInteractionConnectionLost(t *testing.T) {
	started := make(chan struct{})
	s, _, _ := interactiveServer(t, nil, Options{}, func(w *wire) {
		for k := range 2 {
			m := w.request(mcp.MethodInteractionStart)
			w.s.rawResult(*m.ID, fmt.Sprintf(`{"sessionId":"s-%d","state":"idle","initialPrompt":{"type":"text","message":"m"}}`, k))
		}
		<-started
		w.s.kill()
	})
	ctx := testCtx(t)
	var all []*Interaction
	for range 2 {
		i, err := s.StartInteraction(ctx, mcp.InteractionStartParams{ToolName: "t"})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, i)
	}
	close(started)
	for _, i := range all {
		wantPrompt(t, nextEvent(t, i), EventPrompt, "m")
		ev := nextEvent(t, i)
		var ce *ConnectionError
		if ev.Kind != EventError || !errors.As(ev.Err, &ce) {
			t.Fatalf("event %+v, want the connection error", ev)
		}
		wantClosed(t, i)
		if i.State() != mcp.InteractionError {
			t.Fatalf("state %s, want error", i.State())
		}
	}
}

// TestInteractionRespondErrors: an expired session ends the interaction;
// another error puts it back to waiting_user; both are *RPCError.
func TestInteractionRespondErrors(t *testing.T) {
	s, _, done := interactiveServer(t, nil, Options{}, func(w *wire) {
		m := w.request(mcp.MethodInteractionStart)
		w.s.rawResult(*m.ID, `{"sessionId":"s-e","state":"idle","initialPrompt":{"type":"number","message":"How many?"}}`)
		m = w.request(mcp.MethodInteractionRespond)
		w.s.fail(*m.ID, mcp.CodeValidationFailed, "VALIDATION_FAILED")
		m = w.request(mcp.MethodInteractionRespond)
		w.s.fail(*m.ID, mcp.CodeSessionExpired, "Session expired: s-e")
	})
	ctx := testCtx(t)
	i, err := s.StartInteraction(ctx, mcp.InteractionStartParams{ToolName: "t"})
	if err != nil {
		t.Fatal(err)
	}
	nextEvent(t, i)
	var rpcErr *RPCError
	if _, err := i.Respond(ctx, raw(`0`)); !errors.As(err, &rpcErr) || rpcErr.Err.Code != mcp.CodeValidationFailed {
		t.Fatalf("respond error %v", err)
	}
	if i.State() != mcp.InteractionWaitingUser {
		t.Fatalf("state %s after a failed answer, want waiting_user", i.State())
	}
	if _, err := i.Respond(ctx, raw(`3`)); !errors.As(err, &rpcErr) || rpcErr.Err.Code != mcp.CodeSessionExpired ||
		mcp.ErrorName(mcp.DialectInteraction, rpcErr.Err.Code) != "SESSION_EXPIRED" {
		t.Fatalf("respond error %v", err)
	}
	if ev := nextEvent(t, i); ev.Kind != EventError || !errors.As(ev.Err, &rpcErr) {
		t.Fatalf("event %+v, want the expiry", ev)
	}
	wantClosed(t, i)
	if i.State() != mcp.InteractionError {
		t.Fatalf("state %s, want error", i.State())
	}
	waitDone(t, done)
}
