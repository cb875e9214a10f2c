package demo

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// ElicitAllSchema is the requestedSchema of elicit_all: one field of every
// kind MCP's form mode knows.
const ElicitAllSchema = `{"type":"object","properties":{
	"name":{"type":"string","title":"Name","description":"Plain text, 1 to 50 characters","minLength":1,"maxLength":50},
	"email":{"type":"string","title":"Email","format":"email"},
	"website":{"type":"string","title":"Website","format":"uri"},
	"birthday":{"type":"string","title":"Birthday","format":"date"},
	"meeting":{"type":"string","title":"Meeting","format":"date-time"},
	"ratio":{"type":"number","title":"Ratio","minimum":0,"maximum":1},
	"count":{"type":"integer","title":"Count","minimum":1,"maximum":10},
	"subscribe":{"type":"boolean","title":"Subscribe","default":true},
	"color":{"type":"string","title":"Color","enum":["red","green","blue"]},
	"size":{"type":"string","title":"Size","oneOf":[{"const":"s","title":"Small"},{"const":"m","title":"Medium"},{"const":"l","title":"Large"}]},
	"plan":{"type":"string","title":"Plan","enum":["free","pro"],"enumNames":["Free plan","Pro plan"]},
	"toppings":{"type":"array","title":"Toppings","items":{"type":"string","enum":["cheese","ham","olives"]},"default":["cheese"],"maxItems":3}
},"required":["name","email","count"]}`

// elicitURLPath is the loopback page elicit_url asks the user to open.
const elicitURLPath = "http://127.0.0.1/mcpscope-demo/consent"

// elicitTools are the tools that ask the user through elicitation/create.
func elicitTools() []Tool {
	return []Tool{
		{Name: "elicit_all", Description: "Ask the user for a form with every field kind of elicitation/create (form mode) and return what came back",
			Handler: elicitAll, InputSchema: schema(`{"message":{"type":"string","description":"what the form says"}}`)},
		{Name: "elicit_url", Description: "Ask the user to open a loopback URL (elicitation/create, url mode); the result says accepted or declined",
			Handler: elicitURL, InputSchema: schema(`{}`)},
	}
}

// elicit sends elicitation/create and decodes the answer. A client that
// refuses the request (no elicitation support, say) yields a tool error.
func elicit(ctx context.Context, c *Call, p mcp.ElicitRequestParams) (mcp.ElicitResult, *ToolResult, error) {
	raw, err := c.conn.Request(ctx, mcp.MethodElicitationCreate, p)
	var rerr *jsonrpc.Error
	switch {
	case errors.As(err, &rerr):
		return mcp.ElicitResult{}, &ToolResult{Content: []any{Text(fmt.Sprintf("the client refused elicitation/create: %s (code %d)", rerr.Message, rerr.Code))}, IsError: true}, nil
	case err != nil:
		return mcp.ElicitResult{}, nil, err
	}
	var res mcp.ElicitResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return res, &ToolResult{Content: []any{Text(fmt.Sprintf("the elicitation result is malformed: %v", err))}, IsError: true}, nil
	}
	return res, nil, nil
}

// elicitAll asks for ElicitAllSchema and returns the action and content,
// with whether the content matches the schema.
func elicitAll(ctx context.Context, c *Call) (*ToolResult, error) {
	a := struct {
		Message string `json:"message"`
	}{Message: "Fill in every kind of field"}
	if err := decodeArgs(c, &a); err != nil {
		return nil, err
	}
	res, failed, err := elicit(ctx, c, mcp.ElicitRequestParams{Mode: mcp.ElicitModeForm, Message: a.Message, RequestedSchema: json.RawMessage(ElicitAllSchema)})
	if failed != nil || err != nil {
		return failed, err
	}
	out := map[string]any{"action": res.Action, "content": res.Content}
	if res.Action == mcp.ElicitActionAccept {
		content, _ := json.Marshal(res.Content)
		out["valid"] = true
		if err := validateJSON(json.RawMessage(ElicitAllSchema), content); err != nil {
			out["valid"], out["problems"] = false, err.Error()
		}
	}
	return StructuredResult(out), nil
}

// elicitURL asks the user to open a loopback URL and reports the action.
func elicitURL(ctx context.Context, c *Call) (*ToolResult, error) {
	id := "elicit_" + rand.Text()
	res, failed, err := elicit(ctx, c, mcp.ElicitRequestParams{Mode: mcp.ElicitModeURL, ElicitationID: id,
		Message: "Open this page to give your consent", URL: elicitURLPath + "?id=" + id})
	if failed != nil || err != nil {
		return failed, err
	}
	if res.Action == mcp.ElicitActionAccept {
		// The demo's page needs no visit: the out-of-band step is done at once.
		if n, err := jsonrpc.NewNotification(mcp.MethodNotifyElicitationDone, mcp.ElicitationCompleteParams{ElicitationID: id}); err == nil {
			_ = c.conn.sendFor(ctx, n)
		}
	}
	verdict := map[string]string{mcp.ElicitActionAccept: "accepted", mcp.ElicitActionDecline: "declined", mcp.ElicitActionCancel: "cancelled"}[res.Action]
	if verdict == "" {
		verdict = fmt.Sprintf("unknown action %q", res.Action)
	}
	return &ToolResult{Content: []any{Text("the user " + verdict + " the URL elicitation")},
		StructuredContent: map[string]string{"action": res.Action, "result": verdict, "elicitationId": id}}, nil
}
