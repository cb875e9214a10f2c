package demo

import (
	"net/url"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/demo/internal/wizardtest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// elicit_all sends a form of every field kind and returns the content it
// got, checked against the form's schema; decline returns no content.
func TestElicitAll(t *testing.T) {
	c, _ := coreClient(t, newTestServer(t))
	got := c.ElicitAll(mcp.ElicitActionAccept, wizardtest.ElicitAllContent())
	if got["valid"] != true {
		t.Errorf("a complete form was found invalid: %v", got)
	}
	bad := wizardtest.ElicitAllContent()
	bad["count"], bad["email"] = 11.0, "not-an-email"
	if got := c.ElicitAll(mcp.ElicitActionAccept, bad); got["valid"] != false || !strings.Contains(got["problems"].(string), "count") {
		t.Errorf("a form out of bounds: %v", got)
	}
	if got := c.ElicitAll(mcp.ElicitActionDecline, nil); got["content"] != nil {
		t.Errorf("decline: %v", got)
	}
}

// A client without elicitation answers an error: the tool reports it.
func TestElicitRefusedByClient(t *testing.T) {
	c, _ := coreClient(t, newTestServer(t))
	id := c.Start(mcp.MethodToolsCall, map[string]any{"name": "elicit_all"})
	c.ReplyError(c.Expect(mcp.MethodElicitationCreate), mcp.CodeMethodNotFound, "no elicitation here")
	res := toolResult(t, c.Await(id))
	if !res.IsError || !strings.Contains(res.Content[0].Text, "no elicitation here") {
		t.Errorf("refused elicitation: %+v", res)
	}
}

// elicit_url asks in url mode for a loopback URL; accept is followed by
// notifications/elicitation/complete, and the result says what the user
// did.
func TestElicitURL(t *testing.T) {
	c, _ := coreClient(t, newTestServer(t))
	for action, want := range map[string]string{mcp.ElicitActionAccept: "accepted", mcp.ElicitActionDecline: "declined"} {
		id := c.Start(mcp.MethodToolsCall, map[string]any{"name": "elicit_url"})
		m := c.Expect(mcp.MethodElicitationCreate)
		p := wizardtest.Params[mcp.ElicitRequestParams](t, m)
		u, err := url.Parse(p.URL)
		if err != nil || p.Mode != mcp.ElicitModeURL || u.Hostname() != "127.0.0.1" || p.ElicitationID == "" {
			t.Fatalf("url elicitation %+v", p)
		}
		c.Reply(m, mcp.ElicitResult{Action: action})
		res := toolResult(t, c.Await(id))
		if res.IsError || !strings.Contains(res.Content[0].Text, want) {
			t.Errorf("%s: %+v", action, res)
		}
		if action == mcp.ElicitActionAccept {
			n := wizardtest.Params[mcp.ElicitationCompleteParams](t, c.Expect(mcp.MethodNotifyElicitationDone))
			if n.ElicitationID != p.ElicitationID {
				t.Errorf("elicitation/complete names %q, want %q", n.ElicitationID, p.ElicitationID)
			}
		}
	}
}
