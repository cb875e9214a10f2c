package demohttp

import (
	"maps"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// routeHeaders are the headers of a 2026-07-28 tools/call of route with
// the Mcp-Param headers given.
func routeHeaders(params map[string]string) map[string]string {
	hd := modernHeaders(mcp.MethodToolsCall, ToolRoute)
	for k, v := range params {
		hd[headerParamPrefix+k] = v
	}
	return hd
}

// The stateless flavour lists route and route_clash beside the demo's
// tools, with their x-mcp-header annotations; a 2025-11-25 session lists
// neither and does not know them.
func TestStatelessListsTheParamTools(t *testing.T) {
	ts := startServer(t, Options{})
	resp := ts.post(PathMCP, modernBody(t, 1, mcp.MethodToolsList, nil), modernHeaders(mcp.MethodToolsList, ""))
	list := bodyOf(t, resp)
	for _, want := range []string{`"name":"route"`, `"x-mcp-header":"Region"`, `"name":"route_clash"`, `"x-mcp-header":"tenant"`, `"name":"echo"`} {
		if !strings.Contains(list, want) {
			t.Errorf("stateless tools/list lacks %s: %s", want, list)
		}
	}
	sid := ts.initialize()
	resp = ts.post(PathMCP, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, map[string]string{headerSession: sid})
	if m := readEvents(t, resp.Body).message(t); strings.Contains(string(m.Result), `"route`) {
		t.Errorf("a 2025-11-25 session lists the 2026-07-28 tools: %s", m.Result)
	}
	resp = ts.post(PathMCP, toolCall(t, 3, ToolRoute, map[string]any{"region": "eu"}), map[string]string{headerSession: sid})
	if m := readEvents(t, resp.Body).message(t); m.Error == nil || !strings.Contains(m.Error.Message, "unknown tool") {
		t.Errorf("a 2025-11-25 session calls route: %s", m.Raw)
	}
}

// route answers when its Mcp-Param headers match its arguments (a Base64
// sentinel decoded, an integer compared as a number, an absent or null
// argument sending none); a header missing, different, undecodable or
// sent for an argument the body lacks is 400 with -32020 naming it.
// route_clash is answered with no header checked.
func TestStatelessParamHeaderValidation(t *testing.T) {
	ts := startServer(t, Options{})
	args := map[string]any{"region": "zürich", "priority": 2, "dry_run": true, "query": "q"}
	good := map[string]string{"Region": "=?base64?esO8cmljaA==?=", "Priority": "2.0", "Dry-Run": "true"}
	resp := ts.post(PathMCP, modernBody(t, 1, mcp.MethodToolsCall, map[string]any{"name": ToolRoute, "arguments": args}), routeHeaders(good))
	if body := bodyOf(t, resp); resp.StatusCode != http.StatusOK || !strings.Contains(body, `dry_run=true priority=2 query=\"q\" region=\"zürich\"`) {
		t.Errorf("matching headers: %s %s", resp.Status, body)
	}
	nullRegion := map[string]any{"name": ToolRoute, "arguments": map[string]any{"region": nil}}
	resp = ts.post(PathMCP, modernBody(t, 2, mcp.MethodToolsCall, nullRegion), routeHeaders(nil))
	if body := bodyOf(t, resp); resp.StatusCode != http.StatusOK || !strings.Contains(body, "region=null") {
		t.Errorf("null region without its header: %s %s", resp.Status, body)
	}
	noArgs := map[string]any{"name": ToolRouteClash}
	resp = ts.post(PathMCP, modernBody(t, 5, mcp.MethodToolsCall, noArgs), modernHeaders(mcp.MethodToolsCall, ToolRouteClash))
	if body := bodyOf(t, resp); !strings.Contains(body, "no arguments") {
		t.Errorf("route_clash without arguments: %s", body)
	}
	with := func(k, v string) map[string]string {
		hd := maps.Clone(good)
		if v == "" {
			delete(hd, k)
		} else {
			hd[k] = v
		}
		return hd
	}
	for _, c := range []struct {
		headers map[string]string
		args    map[string]any
		names   string
	}{
		{with("Region", ""), args, "Mcp-Param-Region is missing"},
		{with("Priority", "3"), args, `Mcp-Param-Priority value "3" does not match body value 2`},
		{with("Dry-Run", "True"), args, "Mcp-Param-Dry-Run"},
		{with("Region", "=?base64?!!?="), args, "Mcp-Param-Region value"},
		{good, map[string]any{"region": "zürich", "priority": 2}, "Mcp-Param-Dry-Run is sent but the body has no dry_run"},
	} {
		resp := ts.post(PathMCP, modernBody(t, 3, mcp.MethodToolsCall, map[string]any{"name": ToolRoute, "arguments": c.args}), routeHeaders(c.headers))
		rerr := rpcErrorOf(t, resp)
		if resp.StatusCode != http.StatusBadRequest || rerr.Code != codeHeaderMismatch || !strings.Contains(rerr.Message, c.names) {
			t.Errorf("%v %v: %s %+v, want 400 -32020 naming %q", c.headers, c.args, resp.Status, rerr, c.names)
		}
	}
	clash := map[string]any{"name": ToolRouteClash, "arguments": map[string]any{"tenant": "a", "org": "b"}}
	resp = ts.post(PathMCP, modernBody(t, 4, mcp.MethodToolsCall, clash), modernHeaders(mcp.MethodToolsCall, ToolRouteClash))
	if body := bodyOf(t, resp); resp.StatusCode != http.StatusOK || !strings.Contains(body, `org=\"b\" tenant=\"a\"`) {
		t.Errorf("route_clash: %s %s", resp.Status, body)
	}
}
