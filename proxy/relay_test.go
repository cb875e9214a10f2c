package proxy

import (
	"errors"
	"reflect"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
)

// A message no rule or filter matches goes on as the very Hop it came as,
// and is captured with its decoded message.
func TestRelayPassesUnchanged(t *testing.T) {
	s := openSession(t)
	c := &fakeCarrier{}
	h := hop(capture.Out, callTool(1, "echo"))
	h.Conn, h.Fields = "c1", nil
	relay(t, s, h, c)
	got := c.took()
	if len(got) != 1 || got[0].call != "pass" || !reflect.DeepEqual(got[0].hop, h) {
		t.Fatalf("carried %+v, want one Pass of %+v", got, h)
	}
	fs := frames(s)
	if len(fs) != 1 || string(fs[0].Raw) != string(h.Raw) || fs[0].Msg == nil || fs[0].Msg.Method != "tools/call" || fs[0].Conn != "c1" || fs[0].Err != nil {
		t.Fatalf("captured %+v", fs)
	}
	if len(marks(s)) != 0 {
		t.Errorf("marks %v for a message nothing touched", whats(s))
	}
}

// Garbage and a batch are carried on as they came; garbage is captured
// with an error, a batch without one.
func TestRelayGarbagePassesWithAnError(t *testing.T) {
	s := openSession(t)
	c := &fakeCarrier{}
	for _, body := range []string{"this is not json", `{"jsonrpc":"2.0"`, "\x00\xff"} {
		relay(t, s, hop(capture.In, body), c)
	}
	relay(t, s, hop(capture.Out, "["+request(1, "ping", "{}")+"]"), c)
	got := c.took()
	if len(got) != 4 {
		t.Fatalf("carried %d, want 4", len(got))
	}
	fs := frames(s)
	for i, f := range fs {
		if i < 3 && !errors.Is(f.Err, errNotMessage) {
			t.Errorf("frame %d (%q): Err %v, want errNotMessage", i, f.Raw, f.Err)
		}
		if i == 3 && f.Err != nil {
			t.Errorf("a batch is captured with %v", f.Err)
		}
		if got[i].call != "pass" || string(got[i].hop.Raw) != string(f.Raw) {
			t.Errorf("frame %d carried as %+v", i, got[i])
		}
	}
}

// An answer is matched to its request: a filter on the tool of a
// tools/call matches the answer going the other way, and only that one.
func TestRelayMatchesAnswersToTheirRequest(t *testing.T) {
	s := openSession(t, Fault{Match: Filter{Tool: "echo", Dir: "server"}, Action: FaultDrop})
	c := &fakeCarrier{}
	relay(t, s, hop(capture.Out, callTool(1, "echo")), c)
	relay(t, s, hop(capture.Out, callTool(2, "add")), c)
	relay(t, s, hop(capture.In, result(2)), c)
	relay(t, s, hop(capture.In, result(1)), c)
	relay(t, s, hop(capture.In, result(1)), c) // answered already: matches nothing
	if got := c.took(); len(got) != 4 {
		t.Fatalf("carried %d messages, want 4 (the echo answer dropped)", len(got))
	}
	ms := marks(s)
	if len(ms) != 1 || ms[0].What != WhatFault || ms[0].Tool != "echo" || ms[0].Method != "tools/call" || ms[0].ID != "1" {
		t.Fatalf("marks %+v, want one fault on the echo answer", ms)
	}
}

// The requests remembered in flight are bounded: past the bound the
// oldest is forgotten, and answered ones leave no trace behind.
func TestCallsStayBounded(t *testing.T) {
	c := newCalls("")
	c.max = 8
	for i := range 1000 {
		m := decode(hop(capture.Out, callTool(i, "echo")))
		c.see(capture.Out, "", m)
		if i%2 == 0 { // every other one is answered
			c.see(capture.In, "", decode(hop(capture.In, result(i))))
		}
	}
	if len(c.byKey) > 8 || len(c.order) > 2*8+64 {
		t.Fatalf("%d calls, %d refs kept past a bound of 8", len(c.byKey), len(c.order))
	}
	a := c.see(capture.In, "", decode(hop(capture.In, result(999))))
	if a.resolve(); a.tool != "echo" {
		t.Errorf("the newest call forgotten: %+v", a)
	}
	a = c.see(capture.In, "", decode(hop(capture.In, result(1))))
	if a.resolve(); a.tool != "" {
		t.Errorf("the oldest call kept: %+v", a)
	}
}

// A carrier's error is Relay's.
func TestRelayReturnsTheCarriersError(t *testing.T) {
	s := openSession(t)
	boom := errors.New("broken pipe")
	if err := s.Relay(t.Context(), hop(capture.Out, callTool(1, "echo")), &fakeCarrier{fail: boom}); !errors.Is(err, boom) {
		t.Fatalf("Relay: %v, want %v", err, boom)
	}
}

// A filter's '*' matches across '/': "*" is every method.
func TestFilterGlobCrossesSlashes(t *testing.T) {
	for _, c := range []struct {
		f      Filter
		method string
		tool   string
		want   bool
	}{
		{Filter{Method: "*"}, "tools/call", "", true},
		{Filter{Method: "notifications/*"}, "notifications/resources/updated", "", true},
		{Filter{Method: "tools/*"}, "prompts/get", "", false},
		{Filter{Method: "tools/?all"}, "tools/call", "", true},
		{Filter{Tool: "file:///srv/*"}, "resources/read", "file:///srv/a/b.txt", true},
		{Filter{Tool: "echo", Dir: "host"}, "tools/call", "echo", true},
		{Filter{Tool: "[e]cho"}, "tools/call", "echo", true},
	} {
		if got := c.f.Match(capture.Out, c.method, c.tool); got != c.want {
			t.Errorf("%v on %s %s: %v, want %v", c.f, c.method, c.tool, got, c.want)
		}
	}
}
