package ui

import (
	"slices"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// subscriptionStore holds a 2026-07-28 session whose subscriptions/listen
// 4 is acknowledged and carries an update, beside an update tagged for a
// subscription never seen and a notification tagged for none.
func subscriptionStore(t testing.TB) *capture.Store {
	t.Helper()
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	add := func(dir capture.Dir, m *proto.Message) { st.Append(controlFrame(t, dir, c.next(), proto.EncJSON, m)) }
	tagged := func(method string, id any) *proto.Message {
		return notification(t, method, map[string]any{"_meta": map[string]any{proto.MetaSubscriptionID: id}, "uri": "test://watched-resource"})
	}
	add(capture.Out, request(t, 4, proto.MethodSubscriptionsListen, map[string]any{
		"notifications": map[string]any{"resourceSubscriptions": []string{"test://watched-resource"}}}))
	add(capture.In, tagged(proto.MethodNotifySubscriptionsAck, 4))
	add(capture.In, notification(t, proto.MethodNotifyToolsListChanged, nil))
	add(capture.In, tagged(proto.MethodNotifyResourceUpdated, 99))
	add(capture.In, tagged(proto.MethodNotifyResourceUpdated, 4))
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
	selectWhere(t, m, isMethod(proto.MethodSubscriptionsListen))
	walked := walkLinks(t, m, 3)
	listen := " · " + proto.MethodSubscriptionsListen
	want := []string{"4 " + proto.MethodNotifySubscriptionsAck + listen, "4 " + proto.MethodNotifyResourceUpdated + listen,
		"4 " + proto.MethodSubscriptionsListen}
	if got := labels(t, m, walked); !slices.Equal(got, want) {
		t.Errorf("l walked %q, want %q", got, want)
	}
	if got := labels(t, m, []uint64{3, 4}); !slices.Equal(got, []string{" " + proto.MethodNotifyToolsListChanged, "99 " + proto.MethodNotifyResourceUpdated}) {
		t.Errorf("untagged and unknown subscription: %q", got)
	}
	update, _ := m.cfg.Store.Get(5)
	if k, id, ok := requestOf(update); !ok || k.fromServer || id.String() != "4" {
		t.Errorf("the cancel key on an update names %v %v %v, want the client's request 4", k, id, ok)
	}
	checkFilterCounts(t, m, []filterCount{{"#4", 3}, {"#99", 1}})
}
