package mcp

import (
	"encoding/json"
	"slices"
)

// MCP Apps (the extension io.modelcontextprotocol/ui): a tool names a UI
// resource (ui://…, text/html;profile=mcp-app) a host renders in a
// sandboxed frame; the resource says which origins and device permissions
// that frame may use.
const (
	// ExtensionApps is the extension's id, in the extensions of
	// capabilities.
	ExtensionApps = "io.modelcontextprotocol/ui"
	// AppMIMEType is the type of an app's UI resource.
	AppMIMEType = "text/html;profile=mcp-app"
	// MetaAppLegacyURI is the flat _meta key older servers name a tool's
	// UI resource with (beside _meta.ui.resourceUri).
	MetaAppLegacyURI = "ui/resourceUri"
)

// AppClientCapability is what a client declares under
// extensions["io.modelcontextprotocol/ui"]: the UI types it renders.
var AppClientCapability = json.RawMessage(`{"mimeTypes":["` + AppMIMEType + `"]}`)

// ToolApp is a tool's app metadata (_meta.ui): the UI resource and who may
// call the tool ("model", "app"; absent means both).
type ToolApp struct {
	ResourceURI string   `json:"resourceUri"`
	Visibility  []string `json:"visibility,omitempty"`
	// Legacy says the URI came from the flat _meta["ui/resourceUri"] only.
	Legacy bool `json:"-"`
}

// ReadToolApp reads the app metadata of a tool's _meta; false when the
// tool names no UI resource.
func ReadToolApp(meta json.RawMessage) (ToolApp, bool) {
	var m struct {
		UI     json.RawMessage `json:"ui"`
		Legacy *string         `json:"ui/resourceUri"`
	}
	if json.Unmarshal(meta, &m) != nil {
		return ToolApp{}, false
	}
	var a ToolApp
	if json.Unmarshal(m.UI, &a) == nil && a.ResourceURI != "" {
		return a, true
	}
	if m.Legacy != nil && *m.Legacy != "" {
		return ToolApp{ResourceURI: *m.Legacy, Legacy: true}, true
	}
	return ToolApp{}, false
}

// VisibleTo lists who may call the tool, the default ("model", "app")
// when visibility is absent.
func (a ToolApp) VisibleTo() []string {
	if a.Visibility == nil {
		return []string{"model", "app"}
	}
	return a.Visibility
}

// AppCSP is the origins an app's frame may reach, by CSP directive.
type AppCSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	FrameDomains    []string `json:"frameDomains,omitempty"`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`
}

// AppResource is a UI resource's app metadata (_meta.ui of its
// resources/read contents, or of its resources/list entry).
type AppResource struct {
	CSP AppCSP `json:"csp"`
	// Permissions are the device permissions asked for: camera,
	// microphone, geolocation, clipboardWrite (each an object).
	Permissions   map[string]json.RawMessage `json:"permissions,omitempty"`
	Domain        string                     `json:"domain,omitempty"`
	PrefersBorder *bool                      `json:"prefersBorder,omitempty"`
}

// ReadAppResource reads the app metadata of a UI resource's _meta; false
// when it has no _meta.ui object.
func ReadAppResource(meta json.RawMessage) (AppResource, bool) {
	var m struct {
		UI *AppResource `json:"ui"`
	}
	if json.Unmarshal(meta, &m) != nil || m.UI == nil {
		return AppResource{}, false
	}
	return *m.UI, true
}

// PermissionNames are the permissions asked for, sorted.
func (r AppResource) PermissionNames() []string {
	names := make([]string, 0, len(r.Permissions))
	for k := range r.Permissions {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}
