package client

import "encoding/json"

// OwnRequestMeta is the _meta member that marks a request mcpscope sends
// on its own behalf, not the user's; its value says what for. replay
// --against does not send such a request again.
const OwnRequestMeta = "io.github.mcpscope/purpose"

// OutputSchemaListing is the params of the tools/list that learns the
// tools' outputSchemas, marked as mcpscope's own request.
func OutputSchemaListing() any {
	return map[string]any{"_meta": map[string]string{OwnRequestMeta: "outputSchema"}}
}

// IsOwnRequest reports whether the params of a request mark it as sent by
// mcpscope on its own behalf (OwnRequestMeta).
func IsOwnRequest(params json.RawMessage) bool {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	_, own := p.Meta[OwnRequestMeta]
	return own
}
