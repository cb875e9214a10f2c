package proxy

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
)

// A request's tool is read only when something asks for it: with no rule
// in force, calls keeps a small request's params, not its tool.
func TestToolReadOnlyWhenAsked(t *testing.T) {
	c := newCalls("")
	a := c.see(capture.Out, "", decode(hop(capture.Out, callTool(1, "echo"))))
	if a.tool != "" || a.params == nil {
		t.Fatalf("the tool was read with nothing asking: %+v", a)
	}
	if a.resolve(); a.tool != "echo" || a.params != nil {
		t.Fatalf("resolved: %+v", a)
	}
	big := request(2, "tools/call", `{"name":"big","arguments":{"s":"`+strings.Repeat("x", maxLazyParams)+`"}}`)
	if a := c.see(capture.Out, "", decode(hop(capture.Out, big))); a.tool != "big" || a.params != nil {
		t.Fatalf("a request past maxLazyParams keeps its params: tool %q, %d bytes kept", a.tool, len(a.params))
	}
}

// A tool filter set after a request went still pauses its answer, and the
// marks name the tool: the tool is read from the request when the answer
// needs it.
func TestToolFilterSetLaterMatchesTheAnswer(t *testing.T) {
	s := openSession(t)
	c := &fakeCarrier{}
	relay(t, s, hop(capture.Out, callTool(7, "echo")), c)
	if err := s.PauseOn([]Filter{{Tool: "echo", Dir: "server"}}); err != nil {
		t.Fatal(err)
	}
	done := background(context.Background(), s, hop(capture.In, result(7)), c)
	h := heldOne(t, s)
	if h.Tool != "echo" || h.Method != "tools/call" {
		t.Fatalf("paused as %s %s, want tools/call echo", h.Method, h.Tool)
	}
	if err := s.Decide(h.N, Decision{}); err != nil {
		t.Fatal(err)
	}
	if err := awaitRelay(t, done); err != nil {
		t.Fatal(err)
	}
	for _, m := range marks(s) {
		if m.Tool != "echo" {
			t.Errorf("mark %s names tool %q, want echo", m.What, m.Tool)
		}
	}
}
