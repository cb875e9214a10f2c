package mcp

import (
	"encoding/json"
	"testing"
)

// TestSubscriptionOf: a notification tagged by its subscriptions/listen
// stream names the listen's id, a number or a string, even with the key's
// slash escaped; params that name none, or a null, a non-id or broken
// JSON, name no subscription.
func TestSubscriptionOf(t *testing.T) {
	for _, c := range []struct {
		params string
		want   string // the id's JSON, "" for none
	}{
		{`{"_meta":{"io.modelcontextprotocol/subscriptionId":2},"uri":"test://watched-resource"}`, `2`},
		{`{"_meta":{"io.modelcontextprotocol/subscriptionId":"sub-1"}}`, `"sub-1"`},
		{`{"_meta":{"io.modelcontextprotocol\/subscriptionId":7}}`, `7`},
		{`{"uri":"test://watched-resource"}`, ``},
		{`{"_meta":{"io.modelcontextprotocol/subscriptionId":null}}`, ``},
		{`{"_meta":{"io.modelcontextprotocol/subscriptionId":{"x":1}}}`, ``},
		{`{"_meta":{"io.modelcontextprotocol/subscriptionId":2`, ``},
		{`{"subscriptionId":2}`, ``},
		{``, ``},
	} {
		id, ok := SubscriptionOf(json.RawMessage(c.params))
		got := ""
		if ok {
			got = id.String()
		}
		if got != c.want {
			t.Errorf("SubscriptionOf(%s) = %q, %v; want %q", c.params, got, ok, c.want)
		}
	}
}
