package ui

import (
	"strings"
	"testing"
)

// i shows what the server said of itself: name, protocol version, era,
// instructions (made safe to print) and capabilities; esc closes it.
func TestServerInfoView(t *testing.T) {
	m := connectedModel(t)
	press(m, "i")
	s := screenText(m)
	for _, want := range []string{"Server · fake 1", "2025-11-25", "handshake     initialize handshake, a session per connection", "── instructions ──",
		"Call echo first.", "Then stop.", "── capabilities ──", `"tools": {}`} {
		if !strings.Contains(s, want) {
			t.Errorf("the server view lacks %q:\n%s", want, s)
		}
	}
	if raw := m.View().Content; strings.Contains(raw, "\x1b]0;") || strings.Contains(raw, "\x07") {
		t.Error("the server's instructions reached the screen with their escape sequence")
	}
	press(m, "esc")
	if m.overlay != nil {
		t.Fatal("esc did not close the server view")
	}
}
