package ui

import (
	"strings"
	"testing"
)

// The server view says in words what the link speaks; "dialect", a word
// of mcpscope's source, is not on screen.
func TestServerInfoSaysWhatTheLinkSpeaks(t *testing.T) {
	m := connectedModel(t)
	press(m, "i")
	s := screenText(m)
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
