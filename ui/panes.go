package ui

import (
	"strings"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// paneSet says which panes exist on the current connection: a pane that
// cannot have content on its transport is neither laid out, nor in the
// tab bar, nor reached by tab and shift+tab.
type paneSet [paneCount]bool

// allPanes is every pane: a replay of a capture, or a connection whose
// dialect the UI does not know, may hold frames of any kind.
func allPanes() paneSet {
	var s paneSet
	for p := range paneCount {
		s[p] = true
	}
	return s
}

// panesFor returns the panes a link of dialect d can fill. Execution
// streams and datagrams exist only on MCP-Flow; a stderr only where the
// server runs as a child process, which is every transport but MCP-Flow's.
// Any other dialect keeps every pane.
func panesFor(d mcp.Dialect) paneSet {
	s := allPanes()
	switch d {
	case mcp.DialectMCPFlow:
		s[paneStderr] = false
	case mcp.DialectMCP:
		s[paneStreams], s[paneDatagrams] = false, false
	}
	return s
}

// panesOf returns the panes a link in state can fill: those of its
// dialect; no stderr for a server reached over the network (a transport
// that names itself); the streams pane on a transport that carries SSE
// streams or gateway streams.
func panesOf(state client.LinkState) paneSet {
	s := panesFor(state.Dialect)
	if state.Transport != "" {
		s[paneStderr] = false
	}
	if carriesSSE(state) || isGateway(state) {
		s[paneStreams] = true
	}
	return s
}

// gatewayTransport is the LinkState.Transport of seed 003's gateway,
// whose StreamMessage streams the streams pane lists.
const gatewayTransport = "gateway"

// isGateway reports whether a link in state is seed 003's gateway, whether
// or not the server chose a subprotocol ("gateway (mcp)").
func isGateway(state client.LinkState) bool {
	name, _, _ := strings.Cut(state.Transport, " (")
	return name == gatewayTransport
}

// sseTransports are the transports (LinkState.Transport) whose streams
// are SSE streams: the HTTP family.
var sseTransports = map[string]bool{"Streamable HTTP": true, "HTTP+SSE": true, "tools-http": true}

// carriesSSE reports whether a link in state carries SSE streams.
func carriesSSE(state client.LinkState) bool { return sseTransports[state.Transport] }

// step returns the present pane n places after p in focus order (before
// it for a negative n), wrapping around; traffic is always present.
func (s paneSet) step(p paneID, n int) paneID {
	if !s[paneTraffic] {
		return p // the zero set: nothing to step to
	}
	dir := paneID(1)
	if n < 0 {
		dir, n = paneCount-1, -n
	}
	for ; n > 0; n-- {
		p = (p + dir) % paneCount
		for !s[p] {
			p = (p + dir) % paneCount
		}
	}
	return p
}

// absentNote says why the current connection has no pane p.
func absentNote(p paneID) string {
	why := "this connection cannot fill it"
	switch p {
	case paneStreams:
		why = "streams are MCP-Flow's and HTTP's"
	case paneDatagrams:
		why = "datagrams are MCP-Flow's"
	case paneStderr:
		why = "an MCP-Flow server has none"
	}
	return "no " + paneNames[p] + " pane here: " + why
}

// jumpTo focuses pane p (its key is its place in the tab bar), or says
// in the status line why the connection has no such pane.
func (m *Model) jumpTo(p paneID) {
	if !m.panes[p] {
		m.status.note(absentNote(p))
		return
	}
	m.setFocus(p)
}
