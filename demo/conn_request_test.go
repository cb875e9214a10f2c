package demo

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/mcpscope/mcpscope/demo/internal/wizardtest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// requestOutcome is what Request returned.
type requestOutcome struct {
	res json.RawMessage
	err error
}

// requestAsync runs Request on a goroutine.
func requestAsync(ctx context.Context, c *Conn, method string) <-chan requestOutcome {
	out := make(chan requestOutcome, 1)
	go func() {
		res, err := c.Request(ctx, method, map[string]any{})
		out <- requestOutcome{res, err}
	}()
	return out
}

// Server requests carry ids 1, 2, …; the client's response is routed
// to the waiting Request, an error response becomes a *jsonrpc.Error, a
// given-up request is cancelled with notifications/cancelled, and the
// connection's end fails what still waits. Stray responses are ignored.
func TestConnRequest(t *testing.T) {
	cl, p := coreClient(t, newTestServer(t))
	ctx := context.Background()

	got := requestAsync(ctx, p.c, mcp.MethodRootsList)
	m := cl.Expect(mcp.MethodRootsList)
	if m.ID == nil || m.ID.Key() != jsonrpc.IntID(1).Key() {
		t.Fatalf("first server request id %v", m.ID)
	}
	p.Send(jsonrpc.NewErrorResponse(jsonrpc.StringID("s99"), -1, "stray", nil))
	p.Send(jsonrpc.NewErrorResponse(jsonrpc.IntID(77), -1, "stray", nil))
	cl.Reply(m, map[string]any{"roots": []any{}})
	if o := <-got; o.err != nil || string(o.res) != `{"roots":[]}` {
		t.Errorf("answered request: %s %v", o.res, o.err)
	}

	got = requestAsync(ctx, p.c, mcp.MethodSamplingCreateMessage)
	cl.ReplyError(cl.Expect(mcp.MethodSamplingCreateMessage), -1, "User rejected sampling request")
	var rerr *jsonrpc.Error
	if o := <-got; !errors.As(o.err, &rerr) || rerr.Code != -1 {
		t.Errorf("error response: %v", o.err)
	}

	cctx, cancel := context.WithCancel(ctx)
	got = requestAsync(cctx, p.c, mcp.MethodElicitationCreate)
	m = cl.Expect(mcp.MethodElicitationCreate)
	cancel()
	n := wizardtest.Params[mcp.CancelledNotificationParams](t, cl.Expect(mcp.MethodNotifyCancelled))
	if n.RequestID.Key() != m.ID.Key() {
		t.Errorf("notifications/cancelled names %v, want %v", n.RequestID, m.ID)
	}
	if o := <-got; !errors.Is(o.err, context.Canceled) {
		t.Errorf("given-up request: %v", o.err)
	}
	cl.Reply(m, map[string]any{}) // too late: dropped

	got = requestAsync(ctx, p.c, mcp.MethodPing)
	cl.Expect(mcp.MethodPing)
	p.c.Close()
	if o := <-got; !errors.Is(o.err, errConnClosed) {
		t.Errorf("request at close: %v", o.err)
	}
}
