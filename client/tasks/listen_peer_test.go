package tasks_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/tasks"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/proto/mcp"
	mcphttp "github.com/mcpscope/mcpscope/transports/http"
)

// The Go SDK's conformance server speaks 2026-07-28 and serves
// subscriptions/listen, but not the Tasks extension: it acknowledges the
// follow's listen without the task's id (and ends it, having nothing to
// push); the follow opens no other and goes on polling the task, with no
// error (here until the test stops it, once the listen ended).
func TestFollowListenGoSDKConformance(t *testing.T) {
	t.Parallel()
	peer := peertest.StartGoSDKConformanceHTTP(t, true)
	ended := make(chan struct{}) // the listen ended: the server answered it, or the client closed it
	var once sync.Once
	var mu sync.Mutex
	listens, listen := 0, ""
	sink := capture.SinkFunc(func(f *capture.Frame) uint64 {
		mu.Lock()
		defer mu.Unlock()
		m := f.Msg
		switch {
		case f.Dir == capture.Out && m != nil && m.Method == mcp.MethodSubscriptionsListen:
			listens, listen = listens+1, m.ID.Key()
		case f.Dir == capture.In && m != nil && m.IsResponse() && listen != "" && m.ID.Key() == listen,
			f.Dir == capture.Out && strings.Contains(string(f.Raw), "closed the answer stream to cancel subscriptions/listen"):
			once.Do(func() { close(ended) })
		}
		return 0
	})
	tr, err := mcphttp.New(mcphttp.Config{URL: peer.URL, Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithTimeout(context.Background(), guard.Hang)
	defer stop()
	s := client.New(tr, client.Options{})
	if err := s.Connect(ctx); err != nil {
		t.Fatalf("connecting: %v\n%s", err, peer.Output())
	}
	defer func() { _ = s.Close() }()
	if s.Era() != client.EraModern {
		t.Fatalf("the session speaks %s", s.ProtocolVersion())
	}
	fctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-ended:
		case <-fctx.Done():
		}
		cancel()
	}()
	handle := json.RawMessage(`{"resultType":"task","taskId":"no-such-task","status":"working","pollIntervalMs":30000}`)
	_, err = tasks.Follow(fctx, s, handle, tasks.Options{MaxTime: 10 * time.Second})
	select {
	case <-ended:
	default:
		t.Fatalf("the listen did not end: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if listens != 1 {
		t.Errorf("subscriptions/listen sent %d times, want 1", listens)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("the follow ended with %v, want the test's stop", err)
	}
}
