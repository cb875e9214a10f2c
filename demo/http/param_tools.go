package demohttp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// headerParamPrefix starts the header a tool parameter is mirrored into.
const headerParamPrefix = "Mcp-Param-"

// Names of the tools the stateless 2026-07-28 flavour adds to the demo's.
const (
	// ToolRoute mirrors three of its parameters into Mcp-Param headers,
	// validly; a call whose headers do not match its arguments is 400
	// with -32020.
	ToolRoute = "route"
	// ToolRouteClash declares the same x-mcp-header name on two of its
	// parameters, which 2026-07-28 forbids: a conforming client does not
	// call it. The demo answers it all the same, checking no header.
	ToolRouteClash = "route_clash"
)

// headerParam is a parameter of route that x-mcp-header mirrors into the
// header Mcp-Param-{header}.
type headerParam struct {
	name, header, typ, desc string
}

// routeParams are route's mirrored parameters.
var routeParams = []headerParam{
	{"region", "Region", "string", "where the call is routed (Mcp-Param-Region)"},
	{"priority", "Priority", "integer", "queue priority (Mcp-Param-Priority)"},
	{"dry_run", "Dry-Run", "boolean", "plan only (Mcp-Param-Dry-Run)"},
}

// statelessTools are the tools the stateless flavour adds to the demo's:
// the x-mcp-header tools and the task tools.
var statelessTools = append(paramTools(), taskToolDefs()...)

// paramTools are the tools whose parameters 2026-07-28 mirrors into
// headers: route, valid, and route_clash, whose annotations are invalid.
func paramTools() []demo.Tool {
	props := map[string]any{"query": map[string]any{"type": "string", "description": "not mirrored"}}
	for _, p := range routeParams {
		props[p.name] = map[string]any{"type": p.typ, "description": p.desc, "x-mcp-header": p.header}
	}
	clash := map[string]any{
		"tenant": map[string]any{"type": "string", "x-mcp-header": "Tenant"},
		"org":    map[string]any{"type": "string", "x-mcp-header": "tenant"},
	}
	return []demo.Tool{
		{Name: ToolRoute, Description: "Answer where the call goes: region, priority and dry_run travel in " +
			"Mcp-Param headers too, and must match the arguments (2026-07-28 over HTTP)",
			InputSchema: schemaJSON(map[string]any{"type": "object", "properties": props, "required": []string{"region"}}), Handler: answerArguments},
		{Name: ToolRouteClash, Description: "Declares the x-mcp-header name Tenant on two parameters, which " +
			"2026-07-28 forbids: a conforming client does not call it",
			InputSchema: schemaJSON(map[string]any{"type": "object", "properties": clash}), Handler: answerArguments},
	}
}

// schemaJSON encodes a schema built of maps, slices and strings, which
// always encodes.
func schemaJSON(v map[string]any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// answerArguments answers with the call's arguments, by name:
// "dry_run=true priority=2 region=\"eu-west1\"", or "no arguments".
func answerArguments(_ context.Context, c *demo.Call) (*demo.ToolResult, error) {
	var args map[string]json.RawMessage
	if len(c.Args) > 0 && json.Unmarshal(c.Args, &args) != nil {
		return nil, &jsonrpc.Error{Code: mcp.CodeInvalidParams, Message: "the arguments are not a JSON object"}
	}
	parts := make([]string, 0, len(args))
	for _, k := range slices.Sorted(maps.Keys(args)) {
		parts = append(parts, k+"="+string(args[k]))
	}
	if len(parts) == 0 {
		return demo.TextResult("no arguments"), nil
	}
	return demo.TextResult(strings.Join(parts, " ")), nil
}

// checkParamHeaders validates the Mcp-Param headers of a tools/call of
// route against its arguments: a value in the body needs its header,
// equal once decoded (an integer compared as a number); a header needs
// its value. Any other request has none to check. The error is -32020.
func checkParamHeaders(hd http.Header, m *jsonrpc.Message) *jsonrpc.Error {
	if m.Method != mcp.MethodToolsCall {
		return nil
	}
	var p struct {
		Name      string                     `json:"name"`
		Arguments map[string]json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(m.Params, &p) != nil || p.Name != ToolRoute {
		return nil
	}
	for _, param := range routeParams {
		header := headerParamPrefix + param.header
		raw, sent := hd.Get(header), len(hd.Values(header)) > 0
		body := p.Arguments[param.name]
		given := len(body) > 0 && !bytes.Equal(body, []byte("null"))
		mismatch := func(format string, a ...any) *jsonrpc.Error {
			return &jsonrpc.Error{Code: codeHeaderMismatch, Message: "Header mismatch: " + header + " " + fmt.Sprintf(format, a...)}
		}
		switch {
		case !sent && given:
			return mismatch("is missing: the body's %s is %s", param.name, body)
		case sent && !given:
			return mismatch("is sent but the body has no %s", param.name)
		case !sent:
			continue
		}
		got, err := mcp.DecodeHeaderValue(raw)
		if err != nil {
			return mismatch("value %q: %v", raw, err)
		}
		if !headerMatches(got, body) {
			return mismatch("value %q does not match body value %s", got, body)
		}
	}
	return nil
}

// headerMatches reports whether a decoded header value carries the JSON
// value body: a string as it is, a number compared as a number (42.0 is
// 42), true and false as words.
func headerMatches(got string, body json.RawMessage) bool {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return false
	}
	switch v := v.(type) {
	case string:
		return got == v
	case bool:
		return got == strconv.FormatBool(v)
	case float64:
		n, err := strconv.ParseFloat(got, 64)
		return err == nil && n == v
	}
	return false
}
