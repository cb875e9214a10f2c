package serverinfo

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
)

// openOnFakePeer opens the view of a session connected to the fake peer,
// sized w×h, and returns it with its text.
func openOnFakePeer(t *testing.T, w, h int) (*View, string) {
	t.Helper()
	host := screentest.NewHost()
	_, host.Sess = screentest.Connect(t, capture.NewStore(capture.Config{}))
	v := Open(host)
	v.SetSize(w, h)
	return v, v.Title() + "\n" + goldentest.Plain(v.Render(w, h))
}

// The view shows what the server said of itself: name, protocol version,
// era, instructions (made safe to print) and capabilities; esc closes it.
func TestServerInfoView(t *testing.T) {
	v, s := openOnFakePeer(t, 118, 26)
	for _, want := range []string{"Server · fake 1", "2025-11-25", "handshake     initialize handshake, a session per connection", "── instructions ──",
		"Call echo first.", "Then stop.", "── capabilities ──", `"tools": {}`} {
		if !strings.Contains(s, want) {
			t.Errorf("the server view lacks %q:\n%s", want, s)
		}
	}
	if raw := v.Render(118, 26); strings.Contains(raw, "\x1b]0;") || strings.Contains(raw, "\x07") {
		t.Error("the server's instructions reached the screen with their escape sequence")
	}
	if _, closed := v.Update(keytest.Press("esc")); !closed {
		t.Fatal("esc did not close the server view")
	}
}

// The view says in words what the link speaks; "dialect", a word of
// mcpscope's source, is not on screen.
func TestServerInfoSaysWhatTheLinkSpeaks(t *testing.T) {
	_, s := openOnFakePeer(t, 118, 26)
	if strings.Contains(strings.ToLower(s), "dialect") {
		t.Errorf("the server view shows the word dialect:\n%s", s)
	}
	var row string
	for _, l := range strings.Split(s, "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[0] == "speaks" {
			row = l
		}
	}
	if !strings.Contains(row, "MCP") {
		t.Errorf("the server view has no \"speaks MCP…\" row:\n%s", s)
	}
}
