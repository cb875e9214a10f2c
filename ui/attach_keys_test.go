package ui

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proxy"
)

// The steering keys are keys of no pane, and the help and the hint bar
// of an attach name them.
func TestAttachKeysAreTheirOwn(t *testing.T) {
	k := DefaultKeyMap()
	var taken []string
	for _, col := range k.fullHelp(allPanes()) {
		for _, b := range col {
			taken = append(taken, b.Keys()...)
		}
	}
	for _, b := range DefaultAttachKeys().group() {
		for _, key := range b.Keys() {
			if slices.Contains(taken, key) {
				t.Errorf("%s (%s) is a key of the panes too", key, b.Help().Desc)
			}
		}
	}
	r := newTestAttach(t, newProxySession(t), nil, 200, 40)
	if s := r.screen(); !strings.Contains(s, "p pause") || !strings.Contains(s, ": inject") {
		t.Errorf("the hint bar names no steering key:\n%s", s)
	}
	r.Press("?")
	r.waitScreen("Keys of mcpscope attach", "pause filter (set / clear)", "paused messages: forward, edit, drop",
		"faults file (load / clear)", "inject a request", "pause filter: method=GLOB")
}

// Text of a host reaches the terminal only escaped: in the traffic's
// rows, the marks, the paused messages' list and the editor.
func TestAttachHostileTextIsSafe(t *testing.T) {
	s, c := newProxySession(t), &fakeCarrier{}
	if err := s.PauseOn([]proxy.Filter{{Dir: "host"}}); err != nil {
		t.Fatal(err)
	}
	r := newTestAttach(t, s, nil, 220, 40)
	params, _ := json.Marshal(map[string]any{"name": screentest.Hostile, "arguments": map[string]string{"m": screentest.Hostile}})
	held := relayInBackground(t, s, c, capture.Out, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":`+string(params)+`}`)
	r.Until("the call paused", func() bool { return len(s.Held()) == 1 })
	r.refreshed()
	r.Press("h")
	r.waitScreen("Paused · 1 message")
	screentest.AssertSafeView(t, "the paused messages beside the traffic", r.a.View().Content)
	r.Press("e")
	r.waitScreen("Paused · editing #1")
	screentest.AssertSafeView(t, "the editor beside the traffic", r.a.View().Content)
	r.Press("ctrl+s")
	if err := relayed(t, held); err != nil {
		t.Fatal(err)
	}
	if _, sent := c.snapshot(); len(sent) != 1 || !strings.Contains(sent[0].body, `\u009b`) {
		t.Fatalf("the edited message changed what the host wrote: %+v", sent)
	}
}
