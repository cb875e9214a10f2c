package demo

import (
	"encoding/base64"
	"encoding/json"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/demo/internal/wizardtest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// book_trip_stateless walks the same wizard with the whole state in a
// signed token: a new token per prompt under one inner id, nothing stored
// on the connection.
func TestStatelessTokenRoundTrip(t *testing.T) {
	s := newTestServer(t)
	c, p := coreClient(t, s)
	start := c.StartWizard("book_trip_stateless", mcp.PromptText, 5)
	tok, err := mcp.VerifySessionToken(start.SessionID, s.tokenKey)
	if err != nil {
		t.Fatalf("the start sessionId is no token of this server: %v", err)
	}
	next := c.Answer(start.SessionID, "Oslo", mcp.PromptChoice, 2)
	tok2, err := mcp.VerifySessionToken(next.SessionID, s.tokenKey)
	if err != nil || next.SessionID == start.SessionID || tok2.SessionID != tok.SessionID {
		t.Fatalf("the prompt's token %+v (%v) does not follow %+v", tok2, err, tok)
	}
	var st sessionState
	if err := json.Unmarshal(tok2.State, &st); err != nil || st.Step != 1 || string(st.Data["destination"]) != `"Oslo"` {
		t.Errorf("token state %s: %v", tok2.State, err)
	}
	done := c.WalkBookTrip("book_trip_stateless")
	final, err := mcp.VerifySessionToken(done.SessionID, s.tokenKey)
	if err != nil || !json.Valid(final.State) {
		t.Fatalf("final token: %v", err)
	}
	if got := getState(t, c, done.SessionID); got.State != mcp.InteractionCompleted {
		t.Errorf("getState of the final token: %+v", got)
	}
	if code := wizardtest.Code(t, c.Respond(done.SessionID, true)); code != mcp.CodeInvalidStateTransition {
		t.Errorf("respond on the final token: code %d", code)
	}
	if code := wizardtest.Code(t, cancelSession(c, done.SessionID)); code != mcp.CodeInvalidStateTransition {
		t.Errorf("cancel on the final token: code %d", code)
	}
	if r := wizardtest.Result[mcp.InteractionCancelResult](t, cancelSession(c, next.SessionID)); !r.Cancelled {
		t.Errorf("cancel on a live token: %+v", r)
	}
	if n := len(p.c.sessions.byID); n != 0 {
		t.Errorf("the stateless wizard left %d sessions in memory", n)
	}
}

// A token whose state was changed, or that another key signed, is -32001;
// one whose timeout passed is -32002.
func TestStatelessTokenTampering(t *testing.T) {
	s := newTestServer(t)
	c, _ := coreClient(t, s)
	start := c.StartWizard("book_trip_stateless", mcp.PromptText, 5)
	raw, err := base64.RawURLEncoding.DecodeString(start.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	var tok map[string]json.RawMessage
	if err := json.Unmarshal(raw, &tok); err != nil {
		t.Fatal(err)
	}
	var st sessionState
	if err := json.Unmarshal(tok["state"], &st); err != nil {
		t.Fatal(err)
	}
	st.Step = 4 // skip to the confirmation without answering
	tok["state"], _ = json.Marshal(st)
	forged, _ := json.Marshal(tok)
	foreign, err := mcp.SignSessionToken("session_x", st, []byte("another key"))
	if err != nil {
		t.Fatal(err)
	}
	for name, id := range map[string]string{"altered state": base64.RawURLEncoding.EncodeToString(forged), "foreign key": foreign} {
		if code := wizardtest.Code(t, c.Respond(id, true)); code != mcp.CodeSessionNotFound {
			t.Errorf("%s: respond code %d", name, code)
		}
		if code := wizardtest.Code(t, c.Call(mcp.MethodInteractionGetState, map[string]string{"sessionId": id})); code != mcp.CodeSessionNotFound {
			t.Errorf("%s: getState code %d", name, code)
		}
	}
	st.Step = 0
	st.LastActivityAt = time.Now().Add(-time.Hour).UnixMilli()
	old, err := mcp.SignSessionToken("session_old", st, s.tokenKey)
	if err != nil {
		t.Fatal(err)
	}
	if code := wizardtest.Code(t, c.Respond(old, "Oslo")); code != mcp.CodeSessionExpired {
		t.Errorf("expired token: respond code %d", code)
	}
	if got := getState(t, c, old); got.State != mcp.InteractionError {
		t.Errorf("expired token: state %s", got.State)
	}
}
