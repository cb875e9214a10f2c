package mcphttp

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Through the engine: a 2026-07-28 session learns from its tools/list
// which tool has invalid annotations and says why; its call is refused,
// not sent, until the session insists. A 2025-11-25 session mirrors
// nothing, so the same listing flags nothing and the call goes out.
func TestParamHeadersThroughTheSession(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	f.on(mcp.MethodDiscover, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		writeJSON(w, http.StatusOK, resultOf(m, `{"supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{"tools":{}}}`))
	})
	f.on(mcp.MethodToolsList, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		writeJSON(w, http.StatusOK, resultOf(m, `{"tools":[{"name":"clash","inputSchema":{"type":"object","properties":{
			"a":{"type":"string","x-mcp-header":"Tenant"},"b":{"type":"string","x-mcp-header":"tenant"}}}}]}`))
	})
	clash := map[string]any{"name": "clash", "arguments": map[string]any{"a": "x"}}

	s := connect(t, f.URL(), nil, client.Options{})
	if _, err := s.call(mcp.MethodToolsList, nil); err != nil {
		t.Fatal(err)
	}
	bad := s.InvalidToolHeaders("clash")
	if bad == nil || bad.Tool != "clash" || !strings.Contains(bad.Error(), `"tenant" is used twice`) {
		t.Fatalf("InvalidToolHeaders = %v", bad)
	}
	_, err := s.call(mcp.MethodToolsCall, clash)
	var refused *client.InvalidToolHeadersError
	if !errors.As(err, &refused) || len(f.requests(posted(mcp.MethodToolsCall))) != 0 {
		t.Fatalf("tools/call: %v, want refused before sending", err)
	}
	s.InsistOnTool("clash")
	if _, err := s.call(mcp.MethodToolsCall, clash); err != nil {
		t.Fatalf("insisted tools/call: %v", err)
	}
	if calls := f.requests(posted(mcp.MethodToolsCall)); len(calls) != 1 || calls[0].Header.Get("Mcp-Param-Tenant") != "" {
		t.Errorf("insisted tools/call: %d POSTs, headers %v", len(calls), calls)
	}
	_ = s.Close()

	legacy := connect(t, f.URL(), nil, client.Options{ProtocolVersion: mcp.ProtocolVersion20251125})
	if _, err := legacy.call(mcp.MethodToolsList, nil); err != nil {
		t.Fatal(err)
	}
	if bad := legacy.InvalidToolHeaders("clash"); bad != nil {
		t.Errorf("a 2025-11-25 session flags %v", bad)
	}
	if _, err := legacy.call(mcp.MethodToolsCall, clash); err != nil {
		t.Errorf("a 2025-11-25 tools/call: %v", err)
	}
}

// A 2026-07-28 tools/call of a session that never listed the tools is
// preceded by the engine's own tools/list, under an id of its own and
// marked as mcpscope's, whose answer reaches no caller; the call then
// carries the Mcp-Param headers the listing declared.
func TestParamHeadersEngineListsFirst(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	f.on(mcp.MethodDiscover, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		writeJSON(w, http.StatusOK, resultOf(m, `{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}`))
	})
	f.on(mcp.MethodToolsList, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		writeJSON(w, http.StatusOK, resultOf(m, `{"tools":[{"name":"route","inputSchema":{"type":"object","properties":{
			"region":{"type":"string","x-mcp-header":"Region"}}}}]}`))
	})
	s := connect(t, f.URL(), nil, client.Options{})
	if _, err := s.call(mcp.MethodToolsCall, map[string]any{"name": "route", "arguments": map[string]any{"region": "eu"}}); err != nil {
		t.Fatal(err)
	}
	lists := f.requests(posted(mcp.MethodToolsList))
	if len(lists) != 1 || lists[0].Msg.ID.String() != jsonrpc.StringID("mcpscope-tools/list-1").String() ||
		!strings.Contains(string(lists[0].Msg.Params), `"`+client.OwnRequestMeta+`":"x-mcp-header"`) {
		t.Fatalf("listings before the call: %+v", lists)
	}
	if calls := f.requests(posted(mcp.MethodToolsCall)); len(calls) != 1 || calls[0].Header.Get("Mcp-Param-Region") != "eu" {
		t.Errorf("tools/call: %d POSTs, headers %v", len(calls), calls)
	}
}

// A 2026-07-28 tools/call made while the engine's own listing runs waits
// for it, and goes out with the Mcp-Param headers the listing declared,
// as the call that started the listing does.
func TestParamHeadersConcurrentCallWaitsForTheListing(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	f.on(mcp.MethodDiscover, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		writeJSON(w, http.StatusOK, resultOf(m, `{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}`))
	})
	listing, answer := make(chan struct{}), make(chan struct{})
	f.on(mcp.MethodToolsList, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		close(listing)
		<-answer
		writeJSON(w, http.StatusOK, resultOf(m, `{"tools":[{"name":"route","inputSchema":{"type":"object","properties":{
			"region":{"type":"string","x-mcp-header":"Region"}}}}]}`))
	})
	s := connect(t, f.URL(), nil, client.Options{})
	route := map[string]any{"name": "route", "arguments": map[string]any{"region": "eu"}}
	errs := make(chan error, 2)
	go func() { _, err := s.call(mcp.MethodToolsCall, route); errs <- err }()
	<-listing
	go func() { _, err := s.call(mcp.MethodToolsCall, route); errs <- err }()
	time.Sleep(100 * time.Millisecond) // the second call would go out now, were it not waiting
	close(answer)
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	calls := f.requests(posted(mcp.MethodToolsCall))
	if len(calls) != 2 {
		t.Fatalf("%d tools/call POSTs, want 2", len(calls))
	}
	for _, c := range calls {
		if got := c.Header.Get("Mcp-Param-Region"); got != "eu" {
			t.Errorf("tools/call %s: Mcp-Param-Region %q, want eu", c.Msg.ID, got)
		}
	}
}

// The engine's own tools/list carries the protocol version of the call
// that needs it, not its progress token: the listing's progress is not
// the call's.
func TestParamHeadersListingTakesNoProgressToken(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	f.on(mcp.MethodDiscover, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		writeJSON(w, http.StatusOK, resultOf(m, `{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}`))
	})
	f.on(mcp.MethodToolsList, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		writeJSON(w, http.StatusOK, resultOf(m, `{"tools":[]}`))
	})
	s := connect(t, f.URL(), nil, client.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	if _, err := s.Call(ctx, mcp.MethodToolsCall, map[string]any{"name": "route"},
		client.WithProgress(func(mcp.ProgressNotificationParams) {})); err != nil {
		t.Fatal(err)
	}
	if call := f.requests(posted(mcp.MethodToolsCall)); len(call) != 1 || !strings.Contains(string(call[0].Msg.Params), mcp.MetaProgressToken) {
		t.Fatalf("the call carries no progress token: %+v", call)
	}
	lists := f.requests(posted(mcp.MethodToolsList))
	if len(lists) != 1 {
		t.Fatalf("%d tools/list POSTs, want 1", len(lists))
	}
	if p := string(lists[0].Msg.Params); strings.Contains(p, mcp.MetaProgressToken) || !strings.Contains(p, mcp.MetaProtocolVersion) {
		t.Errorf("the engine's tools/list params %s: want the protocol version and no progress token", p)
	}
	if v := lists[0].Header.Get(headerVersion); v != mcp.Modern {
		t.Errorf("the engine's tools/list %s: %q", headerVersion, v)
	}
}
