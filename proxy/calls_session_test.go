package proxy

import (
	"context"
	"strconv"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
)

// Two hosts of one --listen proxy both start their ids at 1: each answer
// is matched with its own host's request, so a drop rule on tools/call
// answers drops the answer to the tools/call and passes the answer to the
// other host's initialize.
func TestIDsOfTwoHostSessionsDoNotCollide(t *testing.T) {
	s := openSession(t, Fault{Match: Filter{Method: "tools/call", Dir: "server"}, Action: FaultDrop})
	c := &fakeCarrier{}
	onSession := func(h Hop, session string) Hop {
		h.Conn, h.Session = session, session
		return h
	}
	relay(t, s, onSession(hop(capture.Out, callTool(1, "echo")), "ws1"), c)
	relay(t, s, onSession(hop(capture.Out, request(1, "initialize", `{}`)), "ws2"), c)
	relay(t, s, onSession(hop(capture.In, result(1)), "ws1"), c)
	relay(t, s, onSession(hop(capture.In, result(1)), "ws2"), c)
	var answered []string
	for _, k := range c.took() {
		if k.dir == capture.In {
			answered = append(answered, k.hop.Session)
		}
	}
	if len(answered) != 1 || answered[0] != "ws2" {
		t.Fatalf("answers carried to the hosts of %v, want only ws2's (initialize); marks %+v", answered, marks(s))
	}
	ms := faultMarks(s)
	if len(ms) != 1 || ms[0].Method != "tools/call" || ms[0].Tool != "echo" {
		t.Fatalf("fault marks %+v, want one on the tools/call answer", ms)
	}
}

// An HTTP host's POSTs and their answers each come on an exchange of
// their own, a server's requests on the GET stream: what ties them is
// the host's session, not the connection.
func TestAnswerOnAnotherConnectionOfTheSameSession(t *testing.T) {
	s := openSession(t, Fault{Match: Filter{Method: "tools/call", Dir: "server"}, Action: FaultDrop})
	c := &fakeCarrier{}
	h := hop(capture.Out, callTool(3, "echo"))
	h.Conn, h.Session = "http POST 1", "abc"
	relay(t, s, h, c)
	a := hop(capture.In, result(3))
	a.Conn, a.Session = "http GET 2", "abc"
	relay(t, s, a, c)
	if ms := faultMarks(s); len(ms) != 1 || ms[0].Method != "tools/call" {
		t.Fatalf("the answer on the GET stream is not matched with its request: %+v", marks(s))
	}
}

// The answer to an injected request is kept from the host whichever host
// session the relay gives it: injected ids are the proxy's own, and its
// method is known.
func TestInjectedAnswerKeptOnAnyHostSession(t *testing.T) {
	s := openSession(t)
	s.SetInjector(func(context.Context, []byte) error { return nil })
	id, err := s.Inject(t.Context(), []byte(`{"method":"tools/list","id":1}`))
	if err != nil {
		t.Fatal(err)
	}
	c := &fakeCarrier{}
	a := hop(capture.In, `{"jsonrpc":"2.0","id":`+strconv.Quote(id)+`,"result":{"tools":[]}}`)
	a.Conn, a.Session = "ws2", "ws2"
	relay(t, s, a, c)
	if len(c.took()) != 0 {
		t.Fatalf("the answer to an injected request reached a host: %+v", c.took())
	}
	ms := marks(s)
	if last := ms[len(ms)-1]; last.What != WhatKept || last.Method != "tools/list" {
		t.Fatalf("marks %+v, want the answer kept as tools/list's", ms)
	}
}
