package demo

import (
	"context"
	"encoding/json"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// The demo's MCP App (io.modelcontextprotocol/ui): the tool weather_app
// names the UI resource ui://demo/weather.html, whose _meta.ui asks for
// the origins and the permission its frame needs.
const (
	appToolName    = "weather_app"
	appResourceURI = "ui://demo/weather.html"
)

// appToolMeta is weather_app's _meta: _meta.ui and the legacy flat key,
// as app servers write both.
var appToolMeta = json.RawMessage(`{"ui":{"resourceUri":"` + appResourceURI + `","visibility":["model","app"]},"` +
	mcp.MetaAppLegacyURI + `":"` + appResourceURI + `"}`)

// appResourceMeta is the UI resource's _meta: its CSP domains and
// permissions.
var appResourceMeta = json.RawMessage(`{"ui":{"csp":{"connectDomains":["https://api.weather.example"],` +
	`"resourceDomains":["https://cdn.weather.example"]},"permissions":{"geolocation":{}},"prefersBorder":true}}`)

// appHTML is the UI resource's page.
const appHTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>Weather</title></head>
<body><h1>Weather</h1><p id="city"></p><p id="temp"></p></body></html>
`

// appTools is the demo's app tool.
func appTools() []Tool {
	return []Tool{{Name: appToolName, Description: "Weather for a city, with an MCP App that shows it (" + appResourceURI + ")",
		Handler: weatherApp, Meta: appToolMeta, InputSchema: schema(`{"city":{"type":"string","default":"Paris"}}`)}}
}

// weatherApp answers with the weather as text and as structuredContent,
// for the app to render.
func weatherApp(_ context.Context, c *Call) (*ToolResult, error) {
	var a struct {
		City string `json:"city"`
	}
	if err := decodeArgs(c, &a); err != nil {
		return nil, err
	}
	if a.City == "" {
		a.City = "Paris"
	}
	return StructuredResult(map[string]any{"city": a.City, "temperature": 21, "conditions": "sunny"}), nil
}

// appResource is the UI resource as resources/list lists it, its _meta.ui
// there too (the fallback of a host that has not read it).
func appResource() mcp.Resource {
	size := int64(len(appHTML))
	return mcp.Resource{URI: appResourceURI, Name: "weather_app_ui", Title: "Weather app",
		Description: "The UI of the weather_app tool", MimeType: mcp.AppMIMEType, Size: &size, Meta: appResourceMeta}
}

// appContents is the UI resource as resources/read returns it.
func appContents() mcp.ResourceContents {
	return mcp.ResourceContents{URI: appResourceURI, MimeType: mcp.AppMIMEType, Text: appHTML, Meta: appResourceMeta}
}
