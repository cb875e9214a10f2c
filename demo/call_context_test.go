package demo

import (
	"context"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// contextRecorder is a recorder that also records, for each message sent
// with SendContext, the call it belongs to.
type contextRecorder struct {
	*recorder
	mu    sync.Mutex
	calls map[string]string // method → call id
}

func (r *contextRecorder) SendContext(ctx context.Context, m *jsonrpc.Message) error {
	if id, ok := CallID(ctx); ok {
		r.mu.Lock()
		r.calls[m.Method] = id.String()
		r.mu.Unlock()
	}
	return r.Send(m)
}

// A tool's elicitation/create and a notification flood's lines are sent
// with the call's context, which names the call; the transport can put
// them where the call's messages go.
func TestCallMessagesCarryTheirCall(t *testing.T) {
	s := newTestServer(t)
	r := &contextRecorder{recorder: newRecorder(), calls: map[string]string{}}
	c := s.NewConn(r)
	defer c.Close()
	c.Handle(request(t, 7, "tools/call", map[string]any{"name": "misbehave", "arguments": map[string]any{"mode": ModeNotificationFlood, "count": 2}}))
	r.response(t, 7)
	c.Handle(request(t, 8, "tools/call", map[string]any{"name": "elicit_url"}))
	var req *jsonrpc.Message
	for req == nil {
		<-r.sent
		r.recorder.mu.Lock()
		for _, m := range r.msgs {
			if m.Method == mcp.MethodElicitationCreate {
				req = m
			}
		}
		r.recorder.mu.Unlock()
	}
	c.Handle(&jsonrpc.Message{JSONRPC: jsonrpc.Version, ID: req.ID, Result: []byte(`{"action":"decline"}`)})
	r.response(t, 8)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.calls[mcp.MethodNotifyMessage] != "7" || r.calls[mcp.MethodElicitationCreate] != "8" {
		t.Errorf("calls of the messages: %v", r.calls)
	}
}

// server/discover's answer declares what initialize declares, and names
// the server in _meta; the core itself still answers the method -32601.
func TestDiscoverMatchesInitialize(t *testing.T) {
	s := newTestServer(t)
	init, rerr := s.Initialize(nil)
	if rerr != nil {
		t.Fatal(rerr)
	}
	d := s.Discover()
	info, ok := d.ServerInfo()
	if !ok || info.Name != init.ServerInfo.Name || info.Version != init.ServerInfo.Version || d.Instructions != init.Instructions || !d.Supports(mcp.Modern) || d.ResultType != mcp.ResultTypeComplete {
		t.Errorf("discover %+v, initialize %+v", d, init)
	}
	r := newRecorder()
	c := s.NewConn(r)
	defer c.Close()
	c.Handle(request(t, 1, mcp.MethodDiscover, nil))
	if m := r.response(t, 1); rpcCode(m) != mcp.CodeMethodNotFound {
		t.Errorf("the core answered server/discover: %s", m.Result)
	}
}
