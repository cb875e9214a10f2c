package ui

import (
	"slices"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// subscriptionStore holds a 2026-07-28 session whose subscriptions/listen
// 4 is acknowledged and carries an update, beside an update tagged for a
// subscription never seen and a notification tagged for none.
func subscriptionStore(t testing.TB) *capture.Store {
	t.Helper()
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	add := func(dir capture.Dir, m *jsonrpc.Message) { st.Append(controlFrame(t, dir, c.next(), proto.EncJSON, m)) }
	tagged := func(method string, id any) *jsonrpc.Message {
		return notification(t, method, map[string]any{"_meta": map[string]any{mcp.MetaSubscriptionID: id}, "uri": "test://watched-resource"})
	}
	add(capture.Out, request(t, 4, mcp.MethodSubscriptionsListen, map[string]any{
		"notifications": map[string]any{"resourceSubscriptions": []string{"test://watched-resource"}}}))
	add(capture.In, tagged(mcp.MethodNotifySubscriptionsAck, 4))
	add(capture.In, notification(t, mcp.MethodNotifyToolsListChanged, nil))
	add(capture.In, tagged(mcp.MethodNotifyResourceUpdated, 99))
	add(capture.In, tagged(mcp.MethodNotifyResourceUpdated, 4))
	return st
}

// TestSubscriptionNotificationsLinkedToTheirListen: a notification tagged
// with a subscription id is a frame of the subscriptions/listen request
// that opened it, as progress is of its call: it shows the request's id and
// method, l walks to it from the request, /#4 finds it, and the cancel key
// on it names the subscription. A notification tagged for an unknown
// subscription shows the id alone; an untagged one names no request.
func TestSubscriptionNotificationsLinkedToTheirListen(t *testing.T) {
	m := newTestModel(t, subscriptionStore(t), 140, 30)
	selectWhere(t, m, isMethod(mcp.MethodSubscriptionsListen))
	walked := walkLinks(t, m, 3)
	listen := " · " + mcp.MethodSubscriptionsListen
	want := []string{"4 " + mcp.MethodNotifySubscriptionsAck + listen, "4 " + mcp.MethodNotifyResourceUpdated + listen,
		"4 " + mcp.MethodSubscriptionsListen}
	if got := labels(t, m, walked); !slices.Equal(got, want) {
		t.Errorf("l walked %q, want %q", got, want)
	}
	if got := labels(t, m, []uint64{3, 4}); !slices.Equal(got, []string{" " + mcp.MethodNotifyToolsListChanged, "99 " + mcp.MethodNotifyResourceUpdated}) {
		t.Errorf("untagged and unknown subscription: %q", got)
	}
	update, _ := m.cfg.Store.Get(5)
	if k, id, ok := requestOf(update); !ok || k.fromServer || id.String() != "4" {
		t.Errorf("the cancel key on an update names %v %v %v, want the client's request 4", k, id, ok)
	}
	checkFilterCounts(t, m, []filterCount{{"#4", 3}, {"#99", 1}})
}
