package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// faultMarks returns the fault marks in the store.
func faultMarks(s *Session) []Mark {
	var out []Mark
	for _, m := range marks(s) {
		if m.What == WhatFault {
			out = append(out, m)
		}
	}
	return out
}

// A delay holds the message for its time, then carries it on unchanged.
func TestFaultDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := openSession(t, Fault{Match: Filter{Tool: "echo"}, Action: FaultDelay, Delay: 2 * time.Second})
		c := &fakeCarrier{}
		h := hop(capture.Out, callTool(1, "echo"))
		done := background(t.Context(), s, h, c)
		time.Sleep(time.Second)
		synctest.Wait()
		if len(c.took()) != 0 {
			t.Fatal("carried before its delay")
		}
		time.Sleep(time.Second)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if got := c.took(); len(got) != 1 || !reflect.DeepEqual(got[0].hop, h) {
			t.Fatalf("carried %+v", got)
		}
		ms := faultMarks(s)
		if len(ms) != 1 || ms[0].Rule != "fault rule 1: delay 2s on tool=echo" || ms[0].Note != "held 2s before carrying it on" || ms[0].ID != "1" {
			t.Fatalf("marks %+v", ms)
		}
	})
}

// A delayed message whose connection closes is carried nowhere.
func TestFaultDelayHonoursContext(t *testing.T) {
	s := openSession(t, Fault{Action: FaultDelay, Delay: time.Hour})
	c := &fakeCarrier{}
	ctx, cancel := context.WithCancel(t.Context())
	done := background(ctx, s, hop(capture.Out, callTool(1, "echo")), c)
	waitFor(t, s, "the delay's mark", func() bool { return len(faultMarks(s)) == 1 })
	cancel()
	if err := awaitRelay(t, done); !errors.Is(err, context.Canceled) {
		t.Fatalf("Relay: %v", err)
	}
	if len(c.took()) != 0 {
		t.Fatalf("carried %+v", c.took())
	}
}

// drop, after and times: the first match goes, the second is dropped,
// the third goes (the rule acted its one time).
func TestFaultDropAfterTimes(t *testing.T) {
	s := openSession(t, Fault{Match: Filter{Method: "tools/list"}, Action: FaultDrop, After: 1, Times: 1})
	c := &fakeCarrier{}
	for i := range 3 {
		relay(t, s, hop(capture.Out, request(i, "tools/list", "{}")), c)
	}
	relay(t, s, hop(capture.Out, request(9, "ping", "{}")), c)
	got := c.took()
	if len(got) != 3 || !strings.Contains(string(got[0].hop.Raw), `"id":0`) || !strings.Contains(string(got[1].hop.Raw), `"id":2`) {
		t.Fatalf("carried %+v", got)
	}
	ms := faultMarks(s)
	if len(ms) != 1 || ms[0].ID != "1" || !strings.HasPrefix(ms[0].Note, "dropped") {
		t.Fatalf("marks %+v", ms)
	}
}

func TestFaultDuplicate(t *testing.T) {
	s := openSession(t, Fault{Match: Filter{Method: "notifications/progress", Dir: "server"}, Action: FaultDuplicate})
	c := &fakeCarrier{}
	h := hop(capture.In, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`)
	relay(t, s, h, c)
	relay(t, s, hop(capture.Out, string(h.Body)), c) // the host's way: not matched
	got := c.took()
	if len(got) != 3 || !reflect.DeepEqual(got[0].hop, h) || !reflect.DeepEqual(got[1].hop, h) {
		t.Fatalf("carried %+v, want the notification twice, then the other once", got)
	}
	if ms := faultMarks(s); len(ms) != 1 || ms[0].Note != noteDuplicate || ms[0].Method != "notifications/progress" {
		t.Fatalf("marks %+v", ms)
	}
}

// corrupt sends the body's first half in its place, so that it no longer
// parses, and captures what went after the mark.
func TestFaultCorrupt(t *testing.T) {
	s := openSession(t, Fault{Match: Filter{Tool: "echo"}, Action: FaultCorrupt})
	c := &fakeCarrier{}
	body := callTool(1, "echo")
	relay(t, s, hop(capture.Out, body+"  "), c)
	got := c.took()
	want := body[:len(body)/2]
	if len(got) != 1 || got[0].call != "send" || got[0].dir != capture.Out || string(got[0].body) != want {
		t.Fatalf("carried %+v, want a Send of %q", got, want)
	}
	if json.Valid(got[0].body) {
		t.Fatal("the corrupted body still parses")
	}
	all := s.Store().Window(0, s.Store().Len())
	if len(all) != 3 || all[1].Chan.Kind != capture.Proxy || string(all[2].Raw) != want || !errors.Is(all[2].Err, errCorrupted) {
		t.Fatalf("captured %+v: the message, the mark, then what went", all)
	}
	m, _ := ParseMark(all[1])
	if m.Seq != all[0].Seq || !strings.Contains(m.Note, "cut to its first") {
		t.Fatalf("mark %+v", m)
	}
	// A CBOR body keeps its trailing bytes in the count.
	cb, err := jsonrpc.JSONToCBOR([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if bad := corrupt(Hop{Body: cb, Enc: proto.EncCBOR}); len(bad) != len(cb)/2 {
		t.Fatalf("a CBOR body cut to %d of %d bytes", len(bad), len(cb))
	}
	if _, err := jsonrpc.Decode(proto.EncCBOR, corrupt(Hop{Body: cb, Enc: proto.EncCBOR})); err == nil {
		t.Fatal("a corrupted CBOR body still decodes")
	}
}

// error answers a request in the proxy's name, with the request's id,
// toward its sender; the request goes no further. A notification it
// matches is dropped, and a response never matches it.
func TestFaultError(t *testing.T) {
	e := &jsonrpc.Error{Code: -32000, Message: "injected failure", Data: json.RawMessage(`{"why":"test"}`)}
	s := openSession(t, Fault{Match: Filter{Method: "tools/call", Tool: "slow"}, Action: FaultError, Error: e},
		Fault{Match: Filter{Method: "notifications/*"}, Action: FaultError, Error: e},
		Fault{Match: Filter{Dir: "server"}, Action: FaultError, Error: e})
	c := &fakeCarrier{}
	relay(t, s, hop(capture.Out, `{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"name":"slow"}}`), c)
	relay(t, s, hop(capture.Out, `{"jsonrpc":"2.0","method":"notifications/initialized"}`), c)
	relay(t, s, hop(capture.Out, callTool(2, "fast")), c)
	relay(t, s, hop(capture.In, result(2)), c) // a response: rule 3 does not act
	got := c.took()
	wantAns := `{"jsonrpc":"2.0","id":"a-1","error":{"code":-32000,"message":"injected failure","data":{"why":"test"}}}`
	if len(got) != 3 || got[0].call != "send" || got[0].dir != capture.In || string(got[0].body) != wantAns ||
		got[1].call != "pass" || got[2].call != "pass" {
		t.Fatalf("carried %+v", got)
	}
	ms := faultMarks(s)
	if len(ms) != 2 || !strings.Contains(ms[0].Note, "answered with error -32000") || ms[0].ID != `"a-1"` ||
		!strings.Contains(ms[1].Note, "not one") || ms[1].Method != "notifications/initialized" {
		t.Fatalf("marks %+v", ms)
	}
	var answer *capture.Frame
	for _, f := range frames(s) {
		if f.Dir == capture.In && f.Msg != nil && f.Msg.Error != nil {
			answer = f
		}
	}
	if answer == nil || string(answer.Raw) != wantAns {
		t.Fatal("the error answer is not captured")
	}
	// The request is answered: its call is no longer in flight.
	s.mu.Lock()
	inFlight := s.calls.inFlight(capture.Out, `sa-1`)
	s.mu.Unlock()
	if inFlight {
		t.Error("the answered request is still in flight")
	}
}

// On a CBOR wire the error answer is CBOR.
func TestFaultErrorCBOR(t *testing.T) {
	s := openSession(t, Fault{Action: FaultError, Error: &jsonrpc.Error{Code: 5, Message: "no"}})
	c := &fakeCarrier{}
	body, err := jsonrpc.JSONToCBOR([]byte(request(3, "tools/list", "{}")))
	if err != nil {
		t.Fatal(err)
	}
	relay(t, s, Hop{Dir: capture.In, Chan: capture.Channel{Kind: capture.Control}, Raw: body, Body: body, Enc: proto.EncCBOR}, c)
	got := c.took()
	if len(got) != 1 || got[0].call != "send" || got[0].dir != capture.Out {
		t.Fatalf("carried %+v", got)
	}
	m, err := jsonrpc.Decode(proto.EncCBOR, got[0].body)
	if err != nil || m.Error == nil || m.Error.Code != 5 || m.ID.String() != "3" {
		t.Fatalf("answer %+v, %v", m, err)
	}
}

// cut lets the first After messages go, then cuts the connection on the
// next, which is not carried.
func TestFaultCut(t *testing.T) {
	s := openSession(t, Fault{Action: FaultCut, After: 2, Times: 1})
	c := &fakeCarrier{}
	for i := range 4 {
		relay(t, s, hop(capture.Out, request(i, "ping", "{}")), c)
	}
	got := c.took()
	calls := make([]string, len(got))
	for i, g := range got {
		calls[i] = g.call
	}
	if !reflect.DeepEqual(calls, []string{"pass", "pass", "cut", "pass"}) || got[2].why != "fault rule 1 cut the connection" {
		t.Fatalf("carried %+v", got)
	}
	if !strings.Contains(string(got[3].hop.Raw), `"id":3`) {
		t.Fatalf("the message that triggered the cut was carried: %+v", got)
	}
	if ms := faultMarks(s); len(ms) != 1 || ms[0].ID != "2" {
		t.Fatalf("marks %+v", ms)
	}
}

// Every matching rule counts a message, the first that can acts; and
// SetFaults starts the counts afresh.
func TestFaultCountsAndSetFaults(t *testing.T) {
	s := openSession(t)
	rules := []Fault{{Action: FaultDrop, Times: 1}, {Action: FaultCut, After: 1}}
	if err := s.SetFaults(rules); err != nil {
		t.Fatal(err)
	}
	if got := s.Faults(); !reflect.DeepEqual(got, rules) {
		t.Fatalf("Faults %+v", got)
	}
	c := &fakeCarrier{}
	relay(t, s, hop(capture.Out, request(1, "ping", "{}")), c) // dropped (and counted by the cut)
	relay(t, s, hop(capture.Out, request(2, "ping", "{}")), c) // the cut's second: cut
	if got := c.took(); len(got) != 1 || got[0].call != "cut" {
		t.Fatalf("carried %+v", got)
	}
	if err := s.SetFaults([]Fault{{Action: FaultDrop, Match: Filter{Tool: "["}}}); err == nil || !strings.Contains(err.Error(), "fault rule 1") {
		t.Fatalf("a bad rule: %v", err)
	}
	if err := s.SetFaults(rules); err != nil {
		t.Fatal(err)
	}
	relay(t, s, hop(capture.Out, request(3, "ping", "{}")), c) // dropped again: counts start afresh
	if got := c.took(); len(got) != 1 {
		t.Fatalf("carried %+v", got)
	}
	if err := s.SetFaults(nil); err != nil || len(s.Faults()) != 0 {
		t.Fatal(err)
	}
	relay(t, s, hop(capture.Out, request(4, "ping", "{}")), c)
	if got := c.took(); len(got) != 2 || got[1].call != "pass" {
		t.Fatalf("carried %+v", got)
	}
	if _, err := Open(Options{Name: "x", NoRecord: true, Faults: []Fault{{Action: "explode"}}}); err == nil {
		t.Fatal("Open took a bad rule")
	}
}

// The session's end lets a delayed message go at once.
func TestFaultDelayEndsWithTheSession(t *testing.T) {
	s := openSession(t, Fault{Action: FaultDelay, Delay: time.Hour})
	c := &fakeCarrier{}
	done := background(t.Context(), s, hop(capture.Out, callTool(1, "echo")), c)
	waitFor(t, s, "the delay's mark", func() bool { return len(faultMarks(s)) == 1 })
	if err := s.Close(nil); err != nil {
		t.Fatal(err)
	}
	if err := awaitRelay(t, done); err != nil {
		t.Fatal(err)
	}
	if got := c.took(); len(got) != 1 || got[0].call != "pass" {
		t.Fatalf("carried %+v", got)
	}
}
