package demo

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/demo/internal/wizardtest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// A session warns with interaction.continue {message, expiresAt} before
// it expires, then moves to error; later requests are -32002.
func TestInteractionTimeout(t *testing.T) {
	c, _ := coreClient(t, newTestServer(t))
	start := startSession(t, c, mcp.InteractionStartParams{ToolName: "register_user", Timeout: 50})
	warn := c.Expect(mcp.MethodInteractionContinue)
	p := wizardtest.Params[mcp.InteractionContinueParams](t, warn)
	c.Reply(warn, mcp.InteractionAck{Acknowledged: true})
	if p.SessionID != start.SessionID || p.NextPrompt != nil || !strings.Contains(p.Message, "expires") || p.ExpiresAt != start.ExpiresAt {
		t.Errorf("warning %+v, start %+v", p, start)
	}
	st := waitState(t, c, start.SessionID, mcp.InteractionError)
	if st.CurrentPrompt != nil || len(st.History) != 0 {
		t.Errorf("an expired session keeps %+v", st)
	}
	if code := wizardtest.Code(t, c.Respond(start.SessionID, "John")); code != mcp.CodeSessionExpired {
		t.Errorf("respond after expiry: code %d", code)
	}
	if code := wizardtest.Code(t, cancelSession(c, start.SessionID)); code != mcp.CodeSessionExpired {
		t.Errorf("cancel after expiry: code %d", code)
	}
}

// Without a timeout the session lives DefaultInteractionTimeout from its
// start, and a long timeout sends no warning early: the first message the
// server initiates is the next prompt.
func TestDefaultTimeout(t *testing.T) {
	c, _ := coreClient(t, newTestServer(t))
	before := time.Now().UnixMilli()
	start := c.StartWizard("register_user", mcp.PromptText, 2)
	after := time.Now().UnixMilli()
	ms := DefaultInteractionTimeout.Milliseconds()
	if start.ExpiresAt < before+ms || start.ExpiresAt > after+ms {
		t.Errorf("expiresAt %d, want %d…%d", start.ExpiresAt, before+ms, after+ms)
	}
	p := c.Answer(start.SessionID, "John", mcp.PromptText, 2)
	if p.ExpiresAt < start.ExpiresAt {
		t.Errorf("an answer did not postpone the expiry: %d < %d", p.ExpiresAt, start.ExpiresAt)
	}
}

// The warning comes when a fifth of the timeout remains, at least a second
// before expiry, and at once for a timeout of a second or less.
func TestWarningLead(t *testing.T) {
	for _, tc := range []struct{ timeout, want time.Duration }{
		{DefaultInteractionTimeout, time.Minute}, {3 * time.Second, time.Second}, {500 * time.Millisecond, 500 * time.Millisecond},
	} {
		if got := warningLead(tc.timeout); got != tc.want {
			t.Errorf("timeout %s: warning %s before expiry, want %s", tc.timeout, got, tc.want)
		}
	}
}
