package client_test

import (
	"errors"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// tsDocument is a resource of the TypeScript reference server.
const tsDocument = "demo://resource/static/document/architecture.md"

// watchedResource is the Go SDK conformance server's resource, updated
// every 3 s.
const watchedResource = "test://watched-resource"

// subscribeAndWait subscribes to uri, lets start make the server send
// updates, waits for the first one and unsubscribes: the subscription
// ends cleanly and leaves the session.
func subscribeAndWait(t *testing.T, s *client.Session, uri string, start func()) *client.ResourceSubscription {
	t.Helper()
	updated := make(chan string, 16)
	sub, err := s.SubscribeResource(peerCtx(t), uri, func(u string) {
		select {
		case updated <- u:
		default:
		}
	})
	if err != nil {
		t.Fatalf("SubscribeResource %s: %v", uri, err)
	}
	if s.ResourceSubscription(uri) != sub {
		t.Fatalf("the session does not hold the subscription to %s", uri)
	}
	if _, err := s.SubscribeResource(peerCtx(t), uri, nil); err == nil {
		t.Errorf("a second subscription to %s was made", uri)
	}
	if start != nil {
		start()
	}
	select {
	case got := <-updated:
		if got != uri {
			t.Errorf("update of %s, want %s", got, uri)
		}
	case <-time.After(guard.Hang):
		t.Fatalf("no notifications/resources/updated of %s", uri)
	}
	if n, last := sub.Updates(); n < 1 || last.IsZero() {
		t.Errorf("Updates() = %d, %v; want at least one, with its time", n, last)
	}
	if err := sub.Unsubscribe(peerCtx(t)); err != nil {
		t.Fatalf("Unsubscribe: %v", err)
	}
	if err := sub.Err(); err != nil {
		t.Errorf("an unsubscribed subscription ended with %v", err)
	}
	return sub
}

// TestSubscribeResourceTS subscribes to a document of the TypeScript
// reference server with resources/subscribe (2025-11-25) and counts the
// update toggle-subscriber-updates sends at once.
func TestSubscribeResourceTS(t *testing.T) {
	t.Parallel()
	s := connectPeer(t, peertest.TSEverything(t, "stdio"), client.Options{})
	sub := subscribeAndWait(t, s, tsDocument, func() { toolText(t, s, "toggle-subscriber-updates", map[string]any{}) })
	if _, ok := sub.ListenID(); ok {
		t.Error("a 2025-11-25 subscription names a listen")
	}
}

// TestSubscribeResourceConformanceListen subscribes to the conformance
// server's watched resource in 2026-07-28: a subscriptions/listen stream
// of its own, whose updates are tagged with its id; unsubscribing cancels
// it.
func TestSubscribeResourceConformanceListen(t *testing.T) {
	t.Parallel()
	s := connectPeer(t, []string{peertest.GoSDKConformance(t)}, client.Options{})
	if s.Era() != client.EraModern {
		t.Fatalf("era %s, want 2026-07-28", s.Era())
	}
	sub := subscribeAndWait(t, s, watchedResource, nil)
	if _, ok := sub.ListenID(); !ok {
		t.Error("a 2026-07-28 subscription names no listen")
	}
	if s.ResourceSubscription(watchedResource) != nil {
		t.Error("the session still holds the subscription after Unsubscribe")
	}
}

// TestSubscribeResourceConformanceLegacy subscribes to the watched
// resource of the conformance server in a 2025-11-25 session, with
// resources/subscribe.
func TestSubscribeResourceConformanceLegacy(t *testing.T) {
	t.Parallel()
	s := connectPeer(t, []string{peertest.GoSDKConformance(t)}, client.Options{ProtocolVersion: "2025-11-25"})
	subscribeAndWait(t, s, watchedResource, nil)
}

// TestSubscribeResourceNotDeclared: a 2025-11-25 server that does not
// declare resources.subscribe (the Go SDK's everything example) gets no
// resources/subscribe; the caller learns why.
func TestSubscribeResourceNotDeclared(t *testing.T) {
	t.Parallel()
	s := connectPeer(t, peertest.GoSDKEverything(t), client.Options{ProtocolVersion: "2025-11-25"})
	_, err := s.SubscribeResource(peerCtx(t), "file:///nothing", nil)
	if !errors.Is(err, client.ErrSubscribeNotDeclared) {
		t.Fatalf("SubscribeResource: %v, want ErrSubscribeNotDeclared", err)
	}
}

// TestSessionLogLevelModern: in 2026-07-28 the Go SDK server sends no log
// message until a request carries a level in _meta; SetLogLevel puts it
// in every request that follows, so test_logging_tool's messages arrive.
func TestSessionLogLevelModern(t *testing.T) {
	t.Parallel()
	s := connectPeer(t, []string{peertest.GoSDKConformance(t)}, client.Options{})
	logs := make(chan *jsonrpc.Message, 16)
	s.Subscribe(func(m *jsonrpc.Message) {
		if m.Method == mcp.MethodNotifyMessage {
			select {
			case logs <- m:
			default:
			}
		}
	})
	s.SetLogLevel("debug")
	if got := s.LogLevel(); got != "debug" {
		t.Fatalf("LogLevel() = %q", got)
	}
	toolText(t, s, "test_logging_tool", map[string]any{}, client.WithNotificationsFirst())
	select {
	case <-logs:
	default:
		t.Fatal("no notifications/message before the result of test_logging_tool with the session's level set")
	}
}
