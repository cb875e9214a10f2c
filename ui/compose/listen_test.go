package compose

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// tagged is a notification tagged with subscription id.
func tagged(t *testing.T, method string, id jsonrpc.ID) *jsonrpc.Message {
	t.Helper()
	m, err := jsonrpc.NewNotification(method, map[string]any{"_meta": map[string]any{mcp.MetaSubscriptionID: id}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A subscriptions/listen sent from the composer stays open past the idle
// limit's kind of wait, shows where it stands as notifications arrive, and
// the cancel key ends it with notifications/cancelled for its id.
func TestComposeListenIsALiveSubscription(t *testing.T) {
	m, _ := openCompose(t)
	peer := connectFake(t, m)
	peer.SetHold(true)
	c := pick(t, m, "subscriptions/listen")
	cmd := func() tea.Cmd { _, cmd := m.Update(screentest.Ctrl('s')); return cmd }()
	done := make(chan tea.Msg, 1)
	go func() {
		done <- screentest.RunUntil(t, "the listen", cmd, func(msg tea.Msg) bool { _, ok := msg.(composeAnswerMsg); return ok })
	}()
	screentest.WaitFor(t, "the listen's id", func() bool { _, ok := c.pending.requestID(); return ok })
	id, _ := c.pending.requestID()
	scr := func() string { return screenText(m) }
	if !strings.Contains(scr(), "listening on subscription "+id.String()+" · waiting for the acknowledgement · 0 notifications") {
		t.Errorf("before the acknowledgement:\n%s", scr())
	}
	peer.Deliver(tagged(t, mcp.MethodNotifySubscriptionsAck, id))
	peer.Deliver(tagged(t, mcp.MethodNotifyToolsListChanged, id))
	peer.Deliver(tagged(t, mcp.MethodNotifyToolsListChanged, jsonrpc.IntID(999))) // another subscription's
	screentest.WaitFor(t, "the notification counted", func() bool { return c.pending.listen.notes.Load() == 1 && c.pending.listen.acked.Load() })
	if !strings.Contains(scr(), "acknowledged · 1 notification") {
		t.Errorf("after a notification:\n%s", scr())
	}
	m.Update(<-func() chan tea.Msg { screentest.RunInBackground(press(m, "ctrl+x")); return done }())
	if !strings.Contains(scr(), "✗ error · subscriptions/listen") || !strings.Contains(scr(), "cancel") {
		t.Errorf("after the cancel key:\n%s", scr())
	}
	// The engine sends the cancellation on its own after the call gave up:
	// it may follow the answer by a moment.
	screentest.WaitFor(t, "a notifications/cancelled for the subscription", func() bool {
		for _, s := range peer.After() {
			if s.Method == mcp.MethodNotifyCancelled && strings.Contains(string(s.Params), `"requestId":`+id.String()) {
				return true
			}
		}
		return false
	})
}
