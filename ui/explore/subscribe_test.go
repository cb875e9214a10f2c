package explore

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// subscribeError presses s and returns the error it reports.
func subscribeError(t *testing.T, m *Model) string {
	t.Helper()
	cmd := press(m, "s")
	if cmd == nil {
		t.Fatal("s did nothing")
	}
	msg, ok := cmd().(screen.ErrorMsg)
	if !ok {
		t.Fatalf("s: %#v, want an error", msg)
	}
	return msg.Err.Error()
}

// TestSubscribeKeyOnResources: s on a resource subscribes to it through
// the live session; with none, or a server that declares no
// resources.subscribe, the status line says why.
func TestSubscribeKeyOnResources(t *testing.T) {
	m, x := fixtureExplorer(t, 110, 14)
	x.tab = tabResources
	e, ok := x.list().selected()
	if !ok {
		t.Fatal("no resource in the fixture")
	}
	if got := subscribeError(t, m); !strings.Contains(got, "cannot subscribe to "+e.uri) || !strings.Contains(got, "not connected") {
		t.Errorf("without a session: %s", got)
	}
	_, m.host.Sess = screentest.Connect(t, m.store)
	if got := subscribeError(t, m); !strings.Contains(got, "does not declare resources.subscribe") {
		t.Errorf("with a server that declares none: %s", got)
	}
	if strings.Contains(plainView(m), subscribedMark) {
		t.Errorf("a resource is marked subscribed:\n%s", plainView(m))
	}
}

// TestSubscribeKeyElsewhere: s on the tools tab says where it serves.
func TestSubscribeKeyElsewhere(t *testing.T) {
	m, _ := fixtureExplorer(t, 110, 14)
	if got := subscribeError(t, m); !strings.Contains(got, "s: subscriptions are of a resource: 2 shows the resources") {
		t.Errorf("s on the tools: %s", got)
	}
	press(m, "3")
	if got := subscribeError(t, m); !strings.Contains(got, "enter reads a URI of it, then s subscribes") {
		t.Errorf("s on the templates: %s", got)
	}
}

// TestSubscribeKeyOnARead: s on the answer of a read subscribes to the
// URI read (a template expanded); on another answer it says why not.
func TestSubscribeKeyOnARead(t *testing.T) {
	m, x := fixtureExplorer(t, 110, 14)
	_, m.host.Sess = screentest.Connect(t, m.store)
	x.showAnswer(mcp.MethodResourcesRead, "template://readme/go/cli", json.RawMessage(`{"contents":[]}`), nil)
	if got := subscribeError(t, m); !strings.Contains(got, "cannot subscribe to template://readme/go/cli: the server does not declare resources.subscribe") {
		t.Errorf("s on a read: %s", got)
	}
	x.showAnswer(mcp.MethodPromptsGet, "greet", json.RawMessage(`{"messages":[]}`), nil)
	if got := subscribeError(t, m); !strings.Contains(got, "this answer is not one") {
		t.Errorf("s on a prompt: %s", got)
	}
}
