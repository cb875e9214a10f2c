package cli

import "testing"

// `mcpscope demo --transport ws` in the TUI: the status bar names the
// WebSocket and the subprotocol the server chose, the upgrade is in the
// traffic, and echo called from the explorer's form shows its answer.
func TestDemoOverWSInTheTUI(t *testing.T) {
	r := startTUI(t, "demo", "--transport", "ws")
	r.waitFor(t, "MCP connected · WebSocket (mcp) · 2025-11-25 · initialize handshake", "mcpscope-demo", "http GET /mcp HTTP/1.1", "tools/list answered")
	r.send(t, "e")
	r.waitFor(t, " tools · / filters")
	r.send(t, "/echo\r")
	r.waitFor(t, "tools match", `"echo"`)
	r.send(t, "\r") // open the form
	r.waitFor(t, "tools/call echo", "message *")
	r.send(t, "typed over ws\x13") // ctrl+s sends
	r.waitFor(t, "tools/call echo · answer", `"text": "typed over ws"`, "tools/call answered")
	if code := r.quitFromOverlay(t); code != ExitOK {
		t.Fatalf("exit %d; stderr: %s", code, r.errb.String())
	}
}

// `mcpscope demo --transport tools-ws` in the TUI: the status bar names
// seed 004's dialect, the server's unsolicited ping is in the traffic as
// the keep-alive it is, and a tools/call composed by hand (the dialect has
// no tools/list) goes out as a tool frame whose answer is shown.
func TestDemoOverToolsWSInTheTUI(t *testing.T) {
	r := startTUI(t, "demo", "--transport", "tools-ws")
	r.waitFor(t, "MCP connected · tools-ws · no handshake", "http GET /tools HTTP/1.1", "ping (tools-ws keep-alive)")
	r.send(t, ":")
	r.waitFor(t, "Compose · pick a method to send")
	r.send(t, "tools/call\r")
	r.waitFor(t, "Compose · request tools/call", `"name": ""`)
	// The editor opens at its first line, {: down to the name, between
	// its quotes; down to the arguments, inside their braces.
	r.send(t, "\x0e\x05\x02\x02echo\x0e\x05\x02\"message\":\"typed over tools-ws\"")
	r.waitFor(t, `"name": "echo"`, `"arguments": {"message":"typed over tools-ws"}`)
	r.send(t, "\x13") // ctrl+s sends
	r.waitFor(t, "← result · tools/call · id 1", `"text": "typed over tools-ws"`, "1 tools/call echo", "1 result · tools/call echo")
	if code := r.quitFromOverlay(t); code != ExitOK {
		t.Fatalf("exit %d; stderr: %s", code, r.errb.String())
	}
}

// In the TUI over tools-ws the explorer lists the demo's own tools (the
// transport has no lists), and n calls a tool by the name typed, its
// arguments as JSON.
func TestDemoOverToolsWSExplorerCallsByName(t *testing.T) {
	r := startTUI(t, "demo", "--transport", "tools-ws")
	r.waitFor(t, "MCP connected · tools-ws · no handshake")
	r.send(t, "e")
	r.waitFor(t, "listed: the demo's tools (this transport has no list) · n calls any tool by its name", "n call a tool by name")
	r.send(t, "n")
	r.waitFor(t, "tool name:")
	r.send(t, "list_templates\r")
	r.waitFor(t, "tools/call list_templates: its arguments as a JSON object")
	r.send(t, "\x13") // ctrl+s sends
	r.waitFor(t, "tools/call list_templates · answer", "template://makefile/rust/cli")
	if code := r.quitFromOverlay(t); code != ExitOK {
		t.Fatalf("exit %d; stderr: %s", code, r.errb.String())
	}
}

// quitFromOverlay presses ctrl+c, which quits from any overlay, and
// returns the exit code.
func (r *tuiRun) quitFromOverlay(t *testing.T) int {
	t.Helper()
	r.send(t, "\x03")
	return <-r.code // the run's context bounds the wait
}
