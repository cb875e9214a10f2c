package mcp

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
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
	// Problems say what of the metadata could not be read or breaks the
	// extension's rules, one line each; the rest is read.
	Problems []string `json:"-"`
}

// ReadToolApp reads the app metadata of a tool's _meta, each member on
// its own: a member of the wrong type is a problem, not the loss of the
// rest. False when the tool names no UI resource.
func ReadToolApp(meta json.RawMessage) (ToolApp, bool) {
	var m struct {
		UI     json.RawMessage `json:"ui"`
		Legacy json.RawMessage `json:"ui/resourceUri"`
	}
	if json.Unmarshal(meta, &m) != nil {
		return ToolApp{}, false
	}
	var a ToolApp
	ui := appMembers(m.UI, "_meta.ui", &a.Problems)
	readAppMember(ui, "resourceUri", "_meta.ui", &a.ResourceURI, "a string", &a.Problems)
	readAppMember(ui, "visibility", "_meta.ui", &a.Visibility, "an array of strings", &a.Problems)
	var legacy string
	if len(m.Legacy) > 0 && json.Unmarshal(m.Legacy, &legacy) != nil {
		a.Problems = append(a.Problems, `_meta["`+MetaAppLegacyURI+`"] is not a string (`+jsonrpc.ValueKind(m.Legacy)+`)`)
	}
	switch {
	case a.ResourceURI == "" && legacy != "":
		a.ResourceURI, a.Legacy = legacy, true
	case legacy != "" && legacy != a.ResourceURI:
		a.Problems = append(a.Problems, `_meta["`+MetaAppLegacyURI+`"] names `+strconv.Quote(legacy)+`, not _meta.ui.resourceUri's`)
	}
	if a.ResourceURI == "" {
		return ToolApp{}, false
	}
	if !strings.HasPrefix(a.ResourceURI, "ui://") {
		a.Problems = append(a.Problems, "the resource URI is not a ui:// URI")
	}
	return a, true
}

// appMembers reads the members of an object at where; a value that is
// not an object is a problem (absent or null is none).
func appMembers(raw json.RawMessage, where string, problems *[]string) map[string]json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		*problems = append(*problems, where+" is not an object ("+jsonrpc.ValueKind(raw)+")")
	}
	return m
}

// readAppMember reads member name of an object at where into to, a value
// of the wrong type (want) a problem that leaves to as it was. An absent
// or null member is left as it is.
func readAppMember[T any](members map[string]json.RawMessage, name, where string, to *T, want string, problems *[]string) {
	raw, ok := members[name]
	if !ok || string(raw) == "null" {
		return
	}
	var v T
	if json.Unmarshal(raw, &v) != nil {
		*problems = append(*problems, where+"."+name+" is not "+want+" ("+jsonrpc.ValueKind(raw)+")")
		return
	}
	*to = v
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
	// Problems say what of the metadata could not be read, one line each;
	// the rest is read.
	Problems []string `json:"-"`
}

// ReadAppResource reads the app metadata of a UI resource's _meta, each
// member on its own: a member of the wrong type is a problem, not the loss
// of the rest. False when it has no _meta.ui.
func ReadAppResource(meta json.RawMessage) (AppResource, bool) {
	var m struct {
		UI json.RawMessage `json:"ui"`
	}
	if json.Unmarshal(meta, &m) != nil || len(m.UI) == 0 || string(m.UI) == "null" {
		return AppResource{}, false
	}
	var r AppResource
	ui := appMembers(m.UI, "_meta.ui", &r.Problems)
	csp := appMembers(ui["csp"], "_meta.ui.csp", &r.Problems)
	for _, d := range []struct {
		name string
		to   *[]string
	}{
		{"connectDomains", &r.CSP.ConnectDomains}, {"resourceDomains", &r.CSP.ResourceDomains},
		{"frameDomains", &r.CSP.FrameDomains}, {"baseUriDomains", &r.CSP.BaseURIDomains},
	} {
		readAppMember(csp, d.name, "_meta.ui.csp", d.to, "an array of strings", &r.Problems)
	}
	readAppMember(ui, "permissions", "_meta.ui", &r.Permissions, "an object", &r.Problems)
	readAppMember(ui, "domain", "_meta.ui", &r.Domain, "a string", &r.Problems)
	readAppMember(ui, "prefersBorder", "_meta.ui", &r.PrefersBorder, "a boolean", &r.Problems)
	return r, true
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
