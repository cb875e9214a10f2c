package mcp

import "encoding/json"

// MetaInteractiveTool is the key of a tool's _meta in tools/list by which
// a server that runs interactive sessions (seed 002) says whether the tool
// runs as one: "_meta": {"mcpflow/interactive": true}. The seed leaves
// per-tool discovery open; mcpscope's demo declares its wizards this way,
// so that a client need not try interaction.start on every tool and be
// refused (-32007 NOT_INTERACTIVE) for the plain ones.
const MetaInteractiveTool = "mcpflow/interactive"

// ToolInteractive reads MetaInteractiveTool from a tool's _meta: declared
// is false when the tool says nothing (no _meta, no such key, not a
// boolean), and interactive is then meaningless.
func ToolInteractive(meta json.RawMessage) (interactive, declared bool) {
	var m map[string]json.RawMessage
	if len(meta) == 0 || json.Unmarshal(meta, &m) != nil {
		return false, false
	}
	var b bool
	if raw, ok := m[MetaInteractiveTool]; !ok || json.Unmarshal(raw, &b) != nil {
		return false, false
	}
	return b, true
}
