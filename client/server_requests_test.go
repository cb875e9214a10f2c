package client

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// answers collects the client's responses to server requests by id key.
func answers(srv *fakeServer, want int) map[string]*jsonrpc.Message {
	got := map[string]*jsonrpc.Message{}
	for len(got) < want {
		m, ok := srv.next()
		if !ok {
			return got
		}
		if m.IsResponse() {
			got[m.ID.Key()] = m
		}
	}
	return got
}

func TestServerRequestsDispatched(t *testing.T) {
	release := make(chan struct{})
	handler := handlerFunc(func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		switch method {
		case mcp.MethodElicitationCreate:
			<-release // a human is still typing
			return answering(ctx, method, params)
		case mcp.MethodSamplingCreateMessage:
			return nil, &jsonrpc.Error{Code: -1, Message: "user declined"}
		case "boom":
			return nil, errors.New("handler broke")
		}
		return nil, &jsonrpc.Error{Code: mcp.CodeMethodNotFound, Message: "ask the engine"}
	})
	got := make(chan map[string]*jsonrpc.Message, 1)
	initParams := make(chan json.RawMessage, 1)
	script := func(srv *fakeServer) {
		legacyHandshake(srv, initParams)
		srv.request(jsonrpc.StringID("elicit"), mcp.MethodElicitationCreate, mcp.ElicitRequestParams{Message: "Name?"})
		srv.request(jsonrpc.StringID("p1"), mcp.MethodPing, nil)
		srv.request(jsonrpc.IntID(0), mcp.MethodRootsList, nil)
		srv.request(jsonrpc.IntID(1), mcp.MethodSamplingCreateMessage, mcp.CreateMessageParams{MaxTokens: 1})
		srv.request(jsonrpc.IntID(2), "foo/bar", nil)
		srv.request(jsonrpc.IntID(3), "boom", nil)
		// Everything but the elicitation is answered while it still waits.
		early := answers(srv, 5)
		close(release)
		for k, v := range answers(srv, 1) {
			early[k] = v
		}
		got <- early
	}
	connect(t, script, Options{Handler: handler, Roots: []mcp.Root{{URI: "file:///a"}}})

	var caps struct {
		Capabilities mcp.ClientCapabilities `json:"capabilities"`
	}
	if err := json.Unmarshal(<-initParams, &caps); err != nil || caps.Capabilities.Roots == nil ||
		caps.Capabilities.Sampling == nil || caps.Capabilities.Elicitation == nil {
		t.Fatalf("initialize capabilities %+v (%v)", caps, err)
	}
	var res map[string]*jsonrpc.Message
	select {
	case res = <-got:
	case <-time.After(hangGuard):
		t.Fatalf("the server requests were not all answered within %s", hangGuard)
	}
	want := map[string]string{
		"sp1":     `{}`,
		"i0":      `{"roots":[{"uri":"file:///a"}]}`,
		"selicit": `{"action":"accept","content":{"asked":"Name?","name":"Ada"}}`,
	}
	for key, result := range want {
		if m := res[key]; m == nil || string(m.Result) != result {
			t.Errorf("answer %s = %v, want %s", key, m, result)
		}
	}
	wantErr := map[string]int{"i1": -1, "i2": mcp.CodeMethodNotFound, "i3": mcp.CodeInternalError}
	for key, code := range wantErr {
		if m := res[key]; m == nil || m.Error == nil || m.Error.Code != code {
			t.Errorf("answer %s = %v, want error %d", key, m, code)
		}
	}
	if m := res["i3"]; m != nil && m.Error != nil && m.Error.Message != "handler broke" {
		t.Errorf("internal error message %q", m.Error.Message)
	}
}

func TestServerRequestsWithoutHandler(t *testing.T) {
	got := make(chan map[string]*jsonrpc.Message, 1)
	initParams := make(chan json.RawMessage, 1)
	script := func(srv *fakeServer) {
		legacyHandshake(srv, initParams)
		srv.request(jsonrpc.IntID(10), mcp.MethodElicitationCreate, mcp.ElicitRequestParams{Message: "?"})
		srv.request(jsonrpc.IntID(11), mcp.MethodRootsList, nil)
		got <- answers(srv, 2)
	}
	connect(t, script, Options{})
	if p := string(<-initParams); p != `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcpscope","version":"`+Version+`"}}` {
		t.Fatalf("initialize params %s declare capabilities without a handler", p)
	}
	res := <-got
	for _, key := range []string{"i10", "i11"} {
		if m := res[key]; m == nil || m.Error == nil || m.Error.Code != mcp.CodeMethodNotFound {
			t.Errorf("answer %s = %v, want -32601", key, m)
		}
	}
}

func TestServerCancelStopsHandler(t *testing.T) {
	stopped := make(chan error, 1)
	handler := handlerFunc(func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		<-ctx.Done()
		stopped <- ctx.Err()
		return mcp.ElicitResult{Action: mcp.ElicitActionCancel}, nil
	})
	after := make(chan []*jsonrpc.Message, 1)
	connect(t, func(srv *fakeServer) {
		if !srv.handshake(false, mcp.LatestLegacy) {
			return
		}
		srv.request(jsonrpc.IntID(60), mcp.MethodElicitationCreate, mcp.ElicitRequestParams{Message: "?"})
		srv.notify(mcp.MethodNotifyCancelled, mcp.CancelledNotificationParams{RequestID: jsonrpc.IntID(60), Reason: "too slow"})
		<-stopped
		srv.request(jsonrpc.IntID(61), mcp.MethodPing, nil)
		var seen []*jsonrpc.Message
		for m, ok := srv.next(); ok; m, ok = srv.next() {
			seen = append(seen, m)
			if m.IsResponse() && m.ID.Key() == "i61" {
				break
			}
		}
		after <- seen
	}, Options{Handler: handler})
	for _, m := range <-after {
		if m.IsResponse() && m.ID.Key() == "i60" {
			t.Fatal("the client answered a request the server had cancelled")
		}
	}
}

func TestSendRoots(t *testing.T) {
	got := make(chan *jsonrpc.Message, 2)
	s, _ := connect(t, serve(false, func(srv *fakeServer, m *jsonrpc.Message) {
		switch {
		case m.Method == mcp.MethodNotifyRootsListChanged:
			got <- m
			srv.request(jsonrpc.IntID(50), mcp.MethodRootsList, nil)
		case m.IsResponse():
			got <- m
		}
	}), Options{Roots: []mcp.Root{{URI: "file:///old"}}})
	if err := s.SendRoots([]mcp.Root{{URI: "file:///new", Name: "new"}}); err != nil {
		t.Fatal(err)
	}
	if m := <-got; m.Method != mcp.MethodNotifyRootsListChanged {
		t.Fatalf("first message %v", m)
	}
	if m := <-got; string(m.Result) != `{"roots":[{"uri":"file:///new","name":"new"}]}` {
		t.Fatalf("roots/list after SendRoots answered %s", m.Result)
	}
}

// legacyHandshake plays a legacy server's side of the handshake, refusing
// server/discover and handing the initialize params to initParams.
func legacyHandshake(srv *fakeServer, initParams chan<- json.RawMessage) {
	for m, ok := srv.next(); ok && m.Method != mcp.MethodNotifyInitialized; m, ok = srv.next() {
		if m.Method == mcp.MethodInitialize {
			initParams <- m.Params
			srv.result(*m.ID, map[string]any{"protocolVersion": mcp.LatestLegacy, "capabilities": map[string]any{}, "serverInfo": map[string]any{"name": "s", "version": "1"}})
		} else {
			srv.fail(*m.ID, mcp.CodeMethodNotFound, "no")
		}
	}
}
