package client_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// TestListensHoldNoRequestSlot: 2026-07-28 subscriptions, each a
// subscriptions/listen stream that lasts, take none of the in-flight
// slots: with as many subscriptions as slots a request still goes out, and
// a subscription past MaxListens fails at once with ErrTooManyListens.
func TestListensHoldNoRequestSlot(t *testing.T) {
	t.Parallel()
	s := connectPeer(t, []string{peertest.GoSDKConformance(t)}, client.Options{MaxInFlight: 2, MaxListens: 3})
	for i := range 3 {
		uri := fmt.Sprintf("%s?%d", watchedResource, i)
		if _, err := s.SubscribeResource(peerCtx(t), uri, nil); err != nil {
			t.Fatalf("SubscribeResource %s: %v", uri, err)
		}
	}
	if _, err := s.Call(peerCtx(t), mcp.MethodToolsList, map[string]any{}); err != nil {
		t.Fatalf("tools/list with 3 subscriptions and 2 request slots: %v", err)
	}
	_, err := s.SubscribeResource(context.Background(), watchedResource, nil)
	if !errors.Is(err, client.ErrTooManyListens) {
		t.Fatalf("a fourth subscription with MaxListens 3: %v, want ErrTooManyListens", err)
	}
	if s.ResourceSubscription(watchedResource) != nil {
		t.Error("the refused subscription is held")
	}
}
