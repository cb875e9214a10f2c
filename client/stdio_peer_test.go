package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/stdio"
)

// frameLog keeps the control frames a transport reports.
type frameLog struct {
	mu     sync.Mutex
	frames []*capture.Frame
}

// Append records a control frame.
func (l *frameLog) Append(f *capture.Frame) uint64 {
	if f.Chan.Kind != capture.Control || f.Msg == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.frames = append(l.frames, f)
	return uint64(len(l.frames))
}

// ids returns how often each tools/call id was sent and answered, and the
// most tools/call requests that were awaiting an answer at one time.
func (l *frameLog) ids() (requests, responses map[string]int, peak int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	requests, responses = map[string]int{}, map[string]int{}
	open := 0
	for _, f := range l.frames {
		switch {
		case f.Dir == capture.Out && f.Msg.Method == mcp.MethodToolsCall:
			requests[f.Msg.ID.Key()]++
			open++
			peak = max(peak, open)
		case f.Dir == capture.In && f.Msg.IsResponse() && requests[f.Msg.ID.Key()] > 0:
			responses[f.Msg.ID.Key()]++
			open--
		}
	}
	return requests, responses, peak
}

// TestStdioPeer128ConcurrentCalls sends 128 tools/call echo requests at
// once to mark3labs/mcp-go's everything server over stdio. Every call must
// get back the text it sent (so each answer was matched to its own id),
// the wire must carry 128 distinct request ids each answered once, and
// nothing may stay in flight.
func TestStdioPeer128ConcurrentCalls(t *testing.T) {
	argv := peertest.Mark3labsEverything(t)
	log := &frameLog{}
	tr := stdio.New(stdio.Config{Command: argv[0], Args: argv[1:], Sink: log})
	s := client.New(tr, client.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer s.Close()

	const n = client.DefaultMaxInFlight
	start := make(chan struct{})
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			msg := fmt.Sprintf("call %03d of %d: %x", i, n, i*2654435761)
			<-start
			raw, err := s.Call(ctx, mcp.MethodToolsCall, map[string]any{
				"name": "echo", "arguments": map[string]string{"message": msg},
			})
			if err != nil {
				errs <- fmt.Errorf("call %d: %w", i, err)
				return
			}
			var res struct {
				Content []struct{ Text string } `json:"content"`
			}
			if err := json.Unmarshal(raw, &res); err != nil || len(res.Content) != 1 || res.Content[0].Text != "Echo: "+msg {
				errs <- fmt.Errorf("call %d sent %q and got %s", i, msg, raw)
			}
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	requests, responses, peak := log.ids()
	t.Logf("up to %d of the %d calls were awaiting an answer at once", peak, n)
	if len(requests) != n {
		t.Errorf("%d distinct tools/call ids on the wire, want %d", len(requests), n)
	}
	for id, count := range requests {
		if count != 1 || responses[id] != 1 {
			t.Errorf("id %s: sent %d times, answered %d times", id, count, responses[id])
		}
	}
	if left := s.InFlight(); left != 0 {
		t.Errorf("%d requests still in flight", left)
	}
}
