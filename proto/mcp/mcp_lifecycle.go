package mcp

import "encoding/json"

// Implementation names a client or server program (clientInfo, serverInfo).
type Implementation struct {
	Name        string          `json:"name"`
	Version     string          `json:"version"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	WebsiteURL  string          `json:"websiteUrl,omitempty"`
	Icons       json.RawMessage `json:"icons,omitempty"`
}

// ClientCapabilities is what a client declares it can do. A member set to a
// non-nil value (usually {}) declares the capability. Members this version
// does not know are kept in Unknown and written back on encoding.
type ClientCapabilities struct {
	Roots        *RootsCapability           `json:"roots,omitempty"`
	Sampling     *SamplingCapability        `json:"sampling,omitempty"`
	Elicitation  *ElicitationCapability     `json:"elicitation,omitempty"`
	Tasks        json.RawMessage            `json:"tasks,omitempty"`
	Experimental map[string]json.RawMessage `json:"experimental,omitempty"`
	Extensions   map[string]json.RawMessage `json:"extensions,omitempty"`

	// Unknown holds members of the capabilities object that no field names.
	Unknown map[string]json.RawMessage `json:"-"`
}

// RootsCapability declares that the client answers roots/list.
type RootsCapability struct {
	ListChanged bool `json:"listChanged,omitempty"`
}

// SamplingCapability declares that the client answers sampling/createMessage.
type SamplingCapability struct {
	Context json.RawMessage `json:"context,omitempty"`
	Tools   json.RawMessage `json:"tools,omitempty"`
}

// ElicitationCapability declares that the client answers elicitation/create.
// Since 2025-11-25 the modes are named: {"form":{},"url":{}}; an empty object
// means form only.
type ElicitationCapability struct {
	Form json.RawMessage `json:"form,omitempty"`
	URL  json.RawMessage `json:"url,omitempty"`
}

type clientCapabilitiesFields ClientCapabilities

// UnmarshalJSON decodes the capabilities and keeps unknown members.
func (c *ClientCapabilities) UnmarshalJSON(b []byte) error {
	var f clientCapabilitiesFields
	unknown, err := decodeKeepingUnknown(b, &f)
	if err != nil {
		return err
	}
	*c = ClientCapabilities(f)
	c.Unknown = unknown
	return nil
}

// MarshalJSON encodes the capabilities, unknown members included.
func (c ClientCapabilities) MarshalJSON() ([]byte, error) {
	return encodeKeepingUnknown(clientCapabilitiesFields(c), c.Unknown)
}

// ServerCapabilities is what a server declares it offers. Members this
// version does not know are kept in Unknown and written back on encoding.
type ServerCapabilities struct {
	Tools        *ListChangedCapability     `json:"tools,omitempty"`
	Prompts      *ListChangedCapability     `json:"prompts,omitempty"`
	Resources    *ResourcesCapability       `json:"resources,omitempty"`
	Logging      json.RawMessage            `json:"logging,omitempty"`
	Completions  json.RawMessage            `json:"completions,omitempty"`
	Tasks        json.RawMessage            `json:"tasks,omitempty"`
	Experimental map[string]json.RawMessage `json:"experimental,omitempty"`
	Extensions   map[string]json.RawMessage `json:"extensions,omitempty"`

	// Unknown holds members of the capabilities object that no field names.
	Unknown map[string]json.RawMessage `json:"-"`
}

// ListChangedCapability declares a feature and whether its list_changed
// notification is sent.
type ListChangedCapability struct {
	ListChanged bool `json:"listChanged,omitempty"`
}

// ResourcesCapability declares resources, subscriptions and list changes.
type ResourcesCapability struct {
	Subscribe   bool `json:"subscribe,omitempty"`
	ListChanged bool `json:"listChanged,omitempty"`
}

type serverCapabilitiesFields ServerCapabilities

// UnmarshalJSON decodes the capabilities and keeps unknown members.
func (c *ServerCapabilities) UnmarshalJSON(b []byte) error {
	var f serverCapabilitiesFields
	unknown, err := decodeKeepingUnknown(b, &f)
	if err != nil {
		return err
	}
	*c = ServerCapabilities(f)
	c.Unknown = unknown
	return nil
}

// MarshalJSON encodes the capabilities, unknown members included.
func (c ServerCapabilities) MarshalJSON() ([]byte, error) {
	return encodeKeepingUnknown(serverCapabilitiesFields(c), c.Unknown)
}

// InitializeParams are the params of initialize (legacy era).
type InitializeParams struct {
	ProtocolVersion string             `json:"protocolVersion"`
	Capabilities    ClientCapabilities `json:"capabilities"`
	ClientInfo      Implementation     `json:"clientInfo"`
	Meta            json.RawMessage    `json:"_meta,omitempty"`
}

// InitializeResult is the server's answer to initialize.
type InitializeResult struct {
	ProtocolVersion string             `json:"protocolVersion"`
	Capabilities    ServerCapabilities `json:"capabilities"`
	ServerInfo      Implementation     `json:"serverInfo"`
	Instructions    string             `json:"instructions,omitempty"`
	Meta            json.RawMessage    `json:"_meta,omitempty"`
}

// RequestMeta is the _meta every modern-era request carries in place of
// the initialize handshake.
type RequestMeta struct {
	ProtocolVersion    string              `json:"io.modelcontextprotocol/protocolVersion"`
	ClientInfo         *Implementation     `json:"io.modelcontextprotocol/clientInfo,omitempty"`
	ClientCapabilities *ClientCapabilities `json:"io.modelcontextprotocol/clientCapabilities"`
}

// DiscoverParams are the params of server/discover: only the request _meta.
type DiscoverParams struct {
	Meta RequestMeta `json:"_meta"`
}

// DiscoverResult is the server's answer to server/discover (modern era).
// The server names itself in _meta under MetaServerInfo.
type DiscoverResult struct {
	ResultType        string                     `json:"resultType,omitempty"`
	SupportedVersions []string                   `json:"supportedVersions"`
	Capabilities      ServerCapabilities         `json:"capabilities"`
	Instructions      string                     `json:"instructions,omitempty"`
	TTLMs             *int64                     `json:"ttlMs,omitempty"`
	CacheScope        string                     `json:"cacheScope,omitempty"`
	Meta              map[string]json.RawMessage `json:"_meta,omitempty"`
}

// Supports reports whether the server lists version v as supported.
func (r *DiscoverResult) Supports(v string) bool {
	for _, s := range r.SupportedVersions {
		if s == v {
			return true
		}
	}
	return false
}

// ServerInfo returns the implementation the server names in its _meta, and
// whether it named one that decodes.
func (r *DiscoverResult) ServerInfo() (Implementation, bool) {
	var info Implementation
	raw, ok := r.Meta[MetaServerInfo]
	if !ok || json.Unmarshal(raw, &info) != nil {
		return Implementation{}, false
	}
	return info, true
}

// UnsupportedVersionData is the data of a -32022 (unsupported protocol
// version) error: what the server supports and what was asked for.
type UnsupportedVersionData struct {
	Supported []string `json:"supported"`
	Requested string   `json:"requested,omitempty"`
}
