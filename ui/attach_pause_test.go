package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proxy"
)

// A pause filter typed at p holds the host's tools/call; the paused
// messages' screen lists it, its JSON edited (an argument changed) goes
// to the server in its place, and the traffic shows it paused and
// edited. Text that is not JSON is refused, nothing sent; drop and
// forward unchanged act on the next calls.
func TestAttachPauseEditForwardDrop(t *testing.T) {
	s, c := newProxySession(t), &fakeCarrier{}
	r := newTestAttach(t, s, nil, 200, 30)
	r.Press("p")
	r.typeLine("method=tools/call tool=ech* dir=host")
	r.waitScreen("pausing on method=tools/call tool=ech* dir=host", "pause on method=tools/call")
	if f := s.PauseFilters(); len(f) != 1 || f[0] != (proxy.Filter{Method: "tools/call", Tool: "ech*", Dir: "host"}) {
		t.Fatalf("pause filters in force: %+v", f)
	}

	first := relayInBackground(t, s, c, capture.Out, hostCall)
	r.Until("the call paused", func() bool { return len(s.Held()) == 1 })
	r.refreshed()
	r.waitScreen("1 message paused (h)", "paused tools/call echo #1")

	r.Press("h")
	r.waitScreen("Paused · 1 message")
	golden(t, "attach_held", r.a.inner.overlay.Render(100, 16))

	r.Press("e")
	r.waitScreen("Paused · editing #1 tools/call echo")
	golden(t, "attach_editor", r.a.inner.overlay.Render(100, 16))

	// Not JSON: refused, nothing goes.
	r.Press("x")
	r.Press("ctrl+s")
	r.waitScreen("not JSON")
	if _, sent := c.snapshot(); len(sent) != 0 || len(s.Held()) != 1 {
		t.Fatalf("text that is not JSON went on: sent %v, %d paused", sent, len(s.Held()))
	}
	r.Press("backspace")
	for range 7 { // to "message": "hi"
		r.Press("down")
	}
	r.Press("end")
	for range 3 {
		r.Press("backspace")
	}
	r.TypeText(`edited"`)
	r.Press("ctrl+s")
	if err := relayed(t, first); err != nil {
		t.Fatal(err)
	}
	passed, sent := c.snapshot()
	if len(passed) != 0 || len(sent) != 1 || sent[0].dir != capture.Out {
		t.Fatalf("the edited call was not the one sent: passed %q, sent %+v", passed, sent)
	}
	var got struct {
		Params struct {
			Arguments map[string]string `json:"arguments"`
		} `json:"params"`
	}
	if err := json.Unmarshal([]byte(sent[0].body), &got); err != nil || got.Params.Arguments["message"] != "edited" {
		t.Fatalf("the server got %s (%v), not the edited argument", sent[0].body, err)
	}
	r.waitScreen("#1 tools/call echo forwarded edited")
	r.Press("esc")
	r.refreshed()
	r.waitScreen("edited tools/call echo #1")

	// Drop, then forward unchanged.
	second := relayInBackground(t, s, c, capture.Out, strings.Replace(hostCall, `"id":2`, `"id":3`, 1))
	r.Until("the second call paused", func() bool { return len(s.Held()) == 1 })
	r.Press("h")
	r.Press("d")
	if err := relayed(t, second); err != nil {
		t.Fatal(err)
	}
	third := relayInBackground(t, s, c, capture.Out, strings.Replace(hostCall, `"id":2`, `"id":4`, 1))
	r.Until("the third call paused", func() bool { return len(s.Held()) == 1 })
	r.Send(refreshMsg{at: t0}) // the open screen reads the list again
	r.Press("enter")
	if err := relayed(t, third); err != nil {
		t.Fatal(err)
	}
	passed, _ = c.snapshot()
	if len(passed) != 1 || !strings.Contains(passed[0], `"id":4`) {
		t.Fatalf("carried unchanged: %q; want only the third call", passed)
	}
	r.Press("esc")
	r.refreshed()
	r.waitScreen("dropped tools/call echo #2", "forwarded tools/call echo #3")

	r.Press("p")
	r.typeLine("")
	r.waitScreen("pause filters cleared")
	if f := s.PauseFilters(); len(f) != 0 {
		t.Fatalf("an empty filter left %+v in force", f)
	}
	r.Press("p")
	r.typeLine("verb=tools/call")
	r.waitScreen("pause filter:", "a filter term is method=, tool= or dir=")
}
