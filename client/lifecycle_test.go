package client

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

func TestTransportDeathFailsAllPending(t *testing.T) {
	const n = 5
	s, _ := connect(t, func(srv *fakeServer) {
		if !srv.handshake(false, mcp.LatestLegacy) {
			return
		}
		for i := 0; i < n; i++ {
			srv.next()
		}
		srv.kill()
	}, Options{})
	ctx := testCtx(t)
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			_, err := s.Call(ctx, "tools/call", nil)
			errs <- err
		}()
	}
	var first *ConnectionError
	for i := 0; i < n; i++ {
		var ce *ConnectionError
		err := <-errs
		if !errors.As(err, &ce) || !errors.Is(err, errFakeDied) {
			t.Fatalf("pending call failed with %v, want the ConnectionError of the dead server", err)
		}
		if first == nil {
			first = ce
		} else if ce != first {
			t.Fatal("pending calls failed with different ConnectionErrors, want one")
		}
	}
	if _, err := s.Call(ctx, "tools/list", nil); !errors.Is(err, first) && err != error(first) {
		t.Fatalf("a later call failed with %v, want the same ConnectionError", err)
	}
	if err := s.Notify(ctx, "notifications/x", nil); err != error(first) {
		t.Fatalf("a later notify failed with %v, want the same ConnectionError", err)
	}
	if s.InFlight() != 0 {
		t.Fatalf("InFlight = %d after death", s.InFlight())
	}
}

func TestCloseFailsPending(t *testing.T) {
	arrived := make(chan struct{})
	s, ft := connect(t, serve(false, func(srv *fakeServer, m *jsonrpc.Message) { close(arrived) }), Options{})
	errc := make(chan error, 1)
	go func() {
		_, err := s.Call(testCtx(t), "slow", nil)
		errc <- err
	}()
	<-arrived
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; !errors.Is(err, ErrClosed) {
		t.Fatalf("pending call: %v, want ErrClosed", err)
	}
	if _, err := s.Call(context.Background(), "x", nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("call after Close: %v", err)
	}
	select {
	case <-ft.Done():
	default:
		t.Fatal("Close left the transport open")
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestCallBeforeConnect(t *testing.T) {
	s := New(newFake(t, func(*fakeServer) {}), Options{})
	if _, err := s.Call(context.Background(), "tools/list", nil); !errors.Is(err, ErrNotConnected) {
		t.Fatalf("Call before Connect: %v", err)
	}
	if err := s.Notify(context.Background(), "x", nil); !errors.Is(err, ErrNotConnected) {
		t.Fatalf("Notify before Connect: %v", err)
	}
}

func TestNotificationsFanOut(t *testing.T) {
	const n = 100
	var mu sync.Mutex
	seen := map[string][]string{}
	record := func(who string) func(*jsonrpc.Message) {
		return func(m *jsonrpc.Message) {
			mu.Lock()
			seen[who] = append(seen[who], string(m.Params))
			mu.Unlock()
		}
	}
	go1 := make(chan struct{})
	finished := make(chan struct{})
	s, _ := connect(t, serve(false, func(srv *fakeServer, m *jsonrpc.Message) {
		switch m.Method {
		case "go":
			for i := 0; i < n; i++ {
				srv.notify(mcp.MethodNotifyMessage, map[string]any{"level": "info", "data": i})
			}
			srv.result(*m.ID, map[string]any{})
		case "last":
			srv.notify("notifications/last", nil)
			srv.result(*m.ID, map[string]any{})
		}
	}), Options{OnNotification: record("options")})
	s.Subscribe(record("a"))
	unsubscribe := s.Subscribe(record("b"))
	s.Subscribe(func(m *jsonrpc.Message) {
		switch m.Method {
		case mcp.MethodNotifyMessage:
			if string(m.Params) == fmt.Sprintf(`{"data":%d,"level":"info"}`, n-1) {
				close(go1)
			}
		case "notifications/last":
			close(finished)
		}
	})
	ctx := testCtx(t)
	if _, err := s.Call(ctx, "go", nil); err != nil {
		t.Fatal(err)
	}
	<-go1
	unsubscribe()
	if _, err := s.Call(ctx, "last", nil); err != nil {
		t.Fatal(err)
	}
	<-finished
	mu.Lock()
	defer mu.Unlock()
	for _, who := range []string{"options", "a"} {
		if len(seen[who]) != n+1 {
			t.Fatalf("%s saw %d notifications, want %d", who, len(seen[who]), n+1)
		}
		for i := 0; i < n; i++ {
			if seen[who][i] != fmt.Sprintf(`{"data":%d,"level":"info"}`, i) {
				t.Fatalf("%s saw notification %d as %s: out of order", who, i, seen[who][i])
			}
		}
	}
	if len(seen["b"]) != n {
		t.Fatalf("unsubscribed b saw %d notifications, want %d", len(seen["b"]), n)
	}
}
