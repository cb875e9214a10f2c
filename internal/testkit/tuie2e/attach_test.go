package tuie2e

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// heldID is the id of the paused request in the JSON editor.
var heldID = regexp.MustCompile(`"id":\s*(\d+)`)

// testAttachHost runs a real host — the official Go SDK's client — against
// the TypeScript reference server through `mcpscope proxy`, and
// `mcpscope attach` in tmux beside it: attach waits for the session,
// shows the host's tools/list and tools/call live with the host as the
// client, pauses the next tools/call by a filter set from the keys, has
// its JSON edited and forwarded, and the host receives the answer to the
// edited call.
func testAttachHost(t *testing.T, bin string) {
	const name = "e2e-host"
	p := startPane(t, bin, "attach", name)
	p.waitFor("waiting for " + name + " to start")

	ctx, cancel := context.WithTimeout(context.Background(), guard.Run)
	defer cancel()
	server := peertest.TSEverything(t, "stdio")
	proxy := exec.Command(bin, append([]string{"proxy", "--name", name, "--"}, server...)...)
	host := mcp.NewClient(&mcp.Implementation{Name: "e2e-host", Version: "1.0.0"}, nil)
	session, err := host.Connect(ctx, &mcp.CommandTransport{Command: proxy}, nil)
	if err != nil {
		t.Fatalf("the host could not connect through the proxy: %v", err)
	}
	defer session.Close()
	if _, err := session.ListTools(ctx, nil); err != nil {
		t.Fatalf("tools/list through the proxy: %v", err)
	}
	if got := echo(ctx, t, session, "live"); got != "Echo: live" {
		t.Fatalf("echo through the proxy answered %q", got)
	}
	p.waitFor("attach "+name, "host→", "←server", "tools/list", "tools/call echo", "result · tools/call")

	p.keys("p")
	p.typeText("method=tools/call dir=host")
	p.keys("Enter")
	p.waitFor("method=tools/call dir=host")

	answer := make(chan string, 1)
	go func() { answer <- echo(ctx, t, session, "original") }()
	p.waitFor("paused tools/call echo")
	p.keys("h")
	p.waitFor("tools/call", "echo")
	p.keys("e")
	// The editor is the left column; the traffic and detail panes on the
	// right may show other ids (the server's roots/list is id 0).
	editor := leftColumn(p.waitUntil("the paused call in the editor", func(s string) bool {
		return heldID.MatchString(leftColumn(s))
	}))
	id := heldID.FindStringSubmatch(editor)[1]
	// Empty the editor (the cursor starts at its top), then type the call
	// with its argument changed.
	for range strings.Count(editor, "\n") + 10 {
		p.keys("C-k", "DC")
	}
	p.typeText(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"echo","arguments":{"message":"edited"}}}`, id))
	p.keys("C-s")
	select {
	case got := <-answer:
		if got != "Echo: edited" {
			t.Fatalf("the host received %q for the edited call; want the answer to the edit", got)
		}
	case <-ctx.Done():
		s, _ := p.screen()
		t.Fatalf("the host never received the answer to the edited call; last screen:\n%s", s)
	}
	p.escapeUntilGone("paused messages")
	p.waitFor("edited")
}

// leftColumn is what screen shows left of the panes' divider.
func leftColumn(screen string) string {
	lines := strings.Split(screen, "\n")
	for i, l := range lines {
		lines[i], _, _ = strings.Cut(l, "│")
	}
	return strings.Join(lines, "\n")
}

// echo calls the echo tool with message and returns the text it answered
// ("" after an error, which fails the test).
func echo(ctx context.Context, t *testing.T, session *mcp.ClientSession, message string) string {
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": message}})
	if err != nil {
		t.Errorf("tools/call echo %q: %v", message, err)
		return ""
	}
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			return tc.Text
		}
	}
	t.Errorf("tools/call echo %q answered no text: %+v", message, res)
	return ""
}
