package tuie2e

import (
	"testing"

	"github.com/mcpscope/mcpscope/internal/peertest"
)

// testHTTPTS runs the TUI against the TypeScript reference over
// Streamable HTTP: the status bar names the transport and the session,
// the traffic shows the HTTP heads, and a tool call from the explorer is
// answered.
func testHTTPTS(t *testing.T, bin string) {
	url := peertest.StartTSStreamableHTTP(t).URL
	p := startPane(t, bin, url)
	p.waitFor("MCP connected · Streamable HTTP", "session ", "http POST /mcp HTTP/1.1", "http HTTP/1.1 202 Accepted")
	callEcho(p, "typed over HTTP")
	p.keys("q")
	p.waitGone()
}

// testWSSupergateway runs the TUI against the TypeScript reference behind
// supergateway's WebSocket output: the status bar names the WebSocket and
// its subprotocol, the upgrade is in the traffic, and a tool call from the
// explorer is answered.
func testWSSupergateway(t *testing.T, bin string) {
	url := peertest.StartSupergatewayWS(t).URL
	p := startPane(t, bin, url)
	p.waitFor("MCP connected · WebSocket (mcp)", "http GET /message HTTP/1.1", "101 Switching Protocols")
	callEcho(p, "typed over WebSocket")
	p.keys("q")
	p.waitGone()
}

// callEcho calls the reference server's echo tool through the explorer's
// form and waits for its answer.
func callEcho(p *tmuxPane, text string) {
	p.keys("e")
	p.waitFor(" tools · / filters")
	p.keys("/")
	p.typeText("echo")
	p.keys("Enter")
	p.waitFor(`tools match "echo"`)
	p.keys("Enter")
	p.waitFor("tools/call echo", "message *")
	p.typeText(text)
	p.keys("C-s")
	p.waitFor("tools/call echo · answer", "Echo: "+text)
	p.escapeUntilGone("Explorer ·")
}
