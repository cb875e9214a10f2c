package demo

// ToolAdder is implemented by an Outbound whose transport serves tools of
// its own beside the registry's (2026-07-28 over Streamable HTTP: tools
// whose arguments are mirrored into Mcp-Param headers). The connection
// lists them with the registry's and calls them like those; a name the
// registry has already is the registry's tool.
type ToolAdder interface {
	AddedTools() []Tool
}

// addedTools are the tools the connection's transport adds, or nil.
func (c *Conn) addedTools() []Tool {
	if a, ok := c.out.(ToolAdder); ok {
		return a.AddedTools()
	}
	return nil
}

// tool looks a tool up in the registry, then among the connection's own.
func (c *Conn) tool(name string) (Tool, bool) {
	if t, ok := c.srv.tool(name); ok {
		return t, true
	}
	for _, t := range c.addedTools() {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}
