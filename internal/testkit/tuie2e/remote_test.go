package tuie2e

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
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
	p.filterTools("echo")
	p.keys("Enter")
	p.waitFor("tools/call echo", "message *")
	p.typeText(text)
	p.keys("C-s")
	p.waitFor("tools/call echo · answer", "Echo: "+text)
	p.escapeUntilGone("Explorer ·")
}

// testGatewayStream runs the demo over seed 003's gateway: S on a stream
// tool in the explorer opens a picker of the working directory's files
// and runs a gateway stream on a connection of its own. With no file
// (ctrl+s) system_binary_streams_out downloads, the server's summary is the
// answer, and the streams pane lists the server's stream, its way down, by
// its method;
// with a file picked, system_binary_streams_in uploads it, and the answer
// on screen is the server's sha256 and size of what arrived.
func testGatewayStream(t *testing.T, bin string) {
	dir := t.TempDir()
	payload := make([]byte, 300000)
	_, _ = rand.Read(payload)
	if err := os.WriteFile(filepath.Join(dir, "upload.bin"), payload, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(payload)
	p := startPaneIn(t, dir, bin, "demo", "--transport", "gateway")
	p.waitFor("MCP connected · gateway (mcp)", "result · tools/list")
	pickStreamTool(p, "binary_streams_out")
	p.keys("C-s")
	p.waitFor("stream system_binary_streams_out · answer", `"totalBytes"`)
	p.escapeUntilGone("Explorer ·")
	p.waitFor("gateway start", "Gateway streams ·", " down   system_binary_st", "1.0 MiB")

	pickStreamTool(p, "binary_streams_in")
	p.keys("Enter")
	p.waitFor("stream system_binary_streams_in · answer", `"sha256": "`+hex.EncodeToString(sum[:])+`"`, `"totalBytes": 300000`)
	p.escapeUntilGone("Explorer ·")
	p.keys("q")
	p.waitGone()
}

// pickStreamTool opens the explorer, filters the tools on name, and opens
// the stream picker of the tool it leaves, which lists upload.bin.
func pickStreamTool(p *tmuxPane, name string) {
	p.keys("e")
	p.waitFor(" tools · / filters")
	p.filterTools(name)
	p.keys("S")
	p.waitFor("gateway stream of system_"+name+" on a connection of its own", "Pick the file to upload", "upload.bin")
}
