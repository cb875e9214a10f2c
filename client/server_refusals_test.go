package client

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Past MaxServerRequests being answered, a request from the server is
// answered at once with a busy error naming how many are in flight, and
// counted; a ping is still answered {}, without a handler.
func TestServerRequestsPastLimitRefusedBusy(t *testing.T) {
	const extra = 44
	release := make(chan struct{})
	handler := handlerFunc(func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		select { // a human who never answers
		case <-release:
		case <-ctx.Done():
		}
		return nil, ctx.Err()
	})
	got := make(chan map[string]*jsonrpc.Message, 1)
	s, _ := connect(t, func(srv *fakeServer) {
		if !srv.handshake(false, mcp.LatestLegacy) {
			return
		}
		for i := range MaxServerRequests + extra {
			srv.request(jsonrpc.IntID(int64(i)), mcp.MethodElicitationCreate, mcp.ElicitRequestParams{Message: "?"})
		}
		srv.request(jsonrpc.StringID("ping"), mcp.MethodPing, nil)
		got <- answers(srv, extra+1)
	}, Options{Handler: handler})
	defer close(release)

	var res map[string]*jsonrpc.Message
	select {
	case res = <-got:
	case <-time.After(hangGuard):
		t.Fatalf("the requests past the limit were not answered within %s", hangGuard)
	}
	if m := res["sping"]; m == nil || string(m.Result) != `{}` {
		t.Errorf("ping answered %v, want {}", m)
	}
	for i := MaxServerRequests; i < MaxServerRequests+extra; i++ {
		m := res[jsonrpc.IntID(int64(i)).Key()]
		if m == nil || m.Error == nil || m.Error.Code != CodeClientBusy {
			t.Fatalf("request %d answered %v, want a busy error", i, m)
		}
		var data BusyData
		if err := json.Unmarshal(m.Error.Data, &data); err != nil || data != (BusyData{InFlight: 256, Limit: 256}) {
			t.Fatalf("busy data %s (%v)", m.Error.Data, err)
		}
		if want := "the client is busy: 256 requests from the server are already in flight, the most it answers at once; try again later"; m.Error.Message != want {
			t.Fatalf("busy message %q", m.Error.Message)
		}
	}
	if n := s.RefusedServerRequests(); n != extra {
		t.Fatalf("RefusedServerRequests = %d, want %d", n, extra)
	}
	if n := s.DroppedNotifications(); n != 0 {
		t.Fatalf("DroppedNotifications = %d, want 0", n)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within the hang guard")
		}
		time.Sleep(time.Millisecond)
	}
}

func waitClosed(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(hangGuard):
		t.Fatalf("%s: still waiting after %s", what, hangGuard)
	}
}
