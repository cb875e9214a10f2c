package mcp

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// Header names of Streamable HTTP that mirror a request's body
// (2026-07-28).
const (
	HeaderMethod          = "Mcp-Method"
	HeaderName            = "Mcp-Name"
	HeaderProtocolVersion = "MCP-Protocol-Version"
	HeaderSessionID       = "Mcp-Session-Id"
)

// Base64 sentinel of a header value that is not plain ASCII.
const (
	headerSentinelPrefix = "=?base64?"
	headerSentinelSuffix = "?="
)

// EncodeHeaderValue encodes s as the 2026-07-28 revision encodes the
// values its headers mirror: printable ASCII with no surrounding
// whitespace goes as it is; anything else, and a plain value that looks
// like the sentinel, goes as =?base64?…?= of its UTF-8 bytes (standard
// alphabet). DecodeHeaderValue reads it back.
func EncodeHeaderValue(s string) string {
	plain := strings.TrimSpace(s) == s &&
		!(strings.HasPrefix(s, headerSentinelPrefix) && strings.HasSuffix(s, headerSentinelSuffix))
	for i := 0; plain && i < len(s); i++ {
		plain = s[i] >= 0x20 && s[i] <= 0x7e
	}
	if plain {
		return s
	}
	return headerSentinelPrefix + base64.StdEncoding.EncodeToString([]byte(s)) + headerSentinelSuffix
}

// DecodeHeaderValue decodes an Mcp-Name or Mcp-Param-* value: the
// =?base64?…?= sentinel holds the Base64 of UTF-8 text; anything else must
// be visible ASCII, space or tab.
func DecodeHeaderValue(v string) (string, error) {
	if strings.HasPrefix(v, headerSentinelPrefix) && strings.HasSuffix(v, headerSentinelSuffix) && len(v) >= len(headerSentinelPrefix)+len(headerSentinelSuffix) {
		b, err := base64.StdEncoding.DecodeString(v[len(headerSentinelPrefix) : len(v)-len(headerSentinelSuffix)])
		if err != nil {
			return "", fmt.Errorf("the Base64 sentinel does not decode: %w", err)
		}
		return string(b), nil
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 0x20 || c > 0x7e) && c != '\t' {
			return "", fmt.Errorf("byte %#x at %d is not allowed in a header value", c, i)
		}
	}
	return v, nil
}

// MirroredName is what the Mcp-Name header of a request of method
// carries, read from its params: the tool's or prompt's name, the
// resource's URI, the task's id (the Tasks extension). named is false for a method whose requests carry no
// Mcp-Name.
func MirroredName(method string, params []byte) (name string, named bool) {
	var p struct {
		Name   string `json:"name"`
		URI    string `json:"uri"`
		TaskID string `json:"taskId"`
	}
	switch method {
	case MethodToolsCall, MethodPromptsGet:
		_ = json.Unmarshal(params, &p)
		return p.Name, true
	case MethodResourcesRead, MethodResourcesSubscribe, MethodResourcesUnsubscribe:
		_ = json.Unmarshal(params, &p)
		return p.URI, true
	case MethodTasksGet, MethodTasksUpdate, MethodTasksCancel:
		_ = json.Unmarshal(params, &p)
		return p.TaskID, true
	}
	return "", false
}
