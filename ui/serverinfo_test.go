package ui

import (
	"strings"
	"testing"
)

// i opens the server view over the panes (its content is tested in
// ui/serverinfo), the server's instructions made safe to print; esc
// closes it.
func TestServerInfoView(t *testing.T) {
	m := connectedModel(t)
	press(m, "i")
	if s := screenText(m); !strings.Contains(s, "Server · fake 1") || !strings.Contains(s, "── capabilities ──") {
		t.Errorf("i did not open the server view:\n%s", s)
	}
	if raw := m.View().Content; strings.Contains(raw, "\x1b]0;") || strings.Contains(raw, "\x07") {
		t.Error("the server's instructions reached the screen with their escape sequence")
	}
	press(m, "esc")
	if m.overlay != nil {
		t.Fatal("esc did not close the server view")
	}
}
