package proxy

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// pauseEcho opens a session that pauses tools/call echo from the host,
// relays one on a goroutine and returns it once it is paused.
func pauseEcho(t *testing.T, ctx context.Context) (*Session, *fakeCarrier, Hop, Held, <-chan error) {
	t.Helper()
	s := openSession(t)
	if err := s.PauseOn([]Filter{{Method: "tools/call", Tool: "echo", Dir: "host"}}); err != nil {
		t.Fatal(err)
	}
	c := &fakeCarrier{}
	h := hop(capture.Out, callTool(7, "echo"))
	done := background(ctx, s, h, c)
	held := heldOne(t, s)
	if len(c.took()) != 0 {
		t.Fatalf("a paused message was carried: %+v", c.took())
	}
	if held.Method != "tools/call" || held.Tool != "echo" || held.Dir != capture.Out || string(held.Body) != string(h.Body) || held.Rule != "method=tools/call tool=echo dir=host" {
		t.Fatalf("held %+v", held)
	}
	return s, c, h, held, done
}

func TestPauseThenForward(t *testing.T) {
	s, c, h, held, done := pauseEcho(t, t.Context())
	if err := s.Decide(held.N, Decision{}); err != nil {
		t.Fatal(err)
	}
	if err := awaitRelay(t, done); err != nil {
		t.Fatal(err)
	}
	got := c.took()
	if len(got) != 1 || got[0].call != "pass" || !reflect.DeepEqual(got[0].hop, h) {
		t.Fatalf("carried %+v, want the Hop unchanged", got)
	}
	if w := whats(s); !reflect.DeepEqual(w, []string{WhatPaused, WhatForwarded}) {
		t.Errorf("marks %v", w)
	}
	if err := s.Decide(held.N, Decision{}); !errors.Is(err, ErrNotHeld) {
		t.Errorf("a second Decide: %v, want ErrNotHeld", err)
	}
}

func TestPauseThenEdit(t *testing.T) {
	s, c, _, held, done := pauseEcho(t, t.Context())
	edited := callTool(7, "echo-edited")
	if err := s.Decide(held.N, Decision{Body: []byte("{not json")}); err == nil {
		t.Fatal("an edit that is not JSON-RPC was taken")
	}
	if len(s.Held()) != 1 {
		t.Fatal("a refused edit let the message go")
	}
	if err := s.Decide(held.N, Decision{Body: []byte(edited)}); err != nil {
		t.Fatal(err)
	}
	if err := awaitRelay(t, done); err != nil {
		t.Fatal(err)
	}
	got := c.took()
	if len(got) != 1 || got[0].call != "send" || got[0].dir != capture.Out || string(got[0].body) != edited {
		t.Fatalf("carried %+v, want one Send of the edited body", got)
	}
	if w := whats(s); !reflect.DeepEqual(w, []string{WhatPaused, WhatEdited}) {
		t.Errorf("marks %v", w)
	}
	fs := frames(s)
	if len(fs) != 2 || string(fs[1].Raw) != edited || fs[1].Msg == nil || fs[1].Dir != capture.Out {
		t.Fatalf("the edited frame is not captured: %+v", fs)
	}
	// The answer matches the request as edited.
	if err := s.SetFaults([]Fault{{Match: Filter{Tool: "echo-edited", Dir: "server"}, Action: FaultDrop}}); err != nil {
		t.Fatal(err)
	}
	relay(t, s, hop(capture.In, result(7)), c)
	if ms := faultMarks(s); len(ms) != 1 || ms[0].Tool != "echo-edited" {
		t.Fatalf("the answer to the edited call: marks %+v", marks(s))
	}
}

func TestPauseThenDrop(t *testing.T) {
	s, c, _, held, done := pauseEcho(t, t.Context())
	if err := s.Decide(held.N, Decision{Drop: true}); err != nil {
		t.Fatal(err)
	}
	if err := awaitRelay(t, done); err != nil {
		t.Fatal(err)
	}
	if got := c.took(); len(got) != 0 {
		t.Fatalf("a dropped message was carried: %+v", got)
	}
	if w := whats(s); !reflect.DeepEqual(w, []string{WhatPaused, WhatDropped}) {
		t.Errorf("marks %v", w)
	}
}

// ReleaseAll lets a paused message go unchanged and clears the filters:
// the next message goes straight on.
func TestReleaseAllLetsHeldMessagesGo(t *testing.T) {
	s, c, h, _, done := pauseEcho(t, t.Context())
	s.ReleaseAll("the last viewer left")
	if err := awaitRelay(t, done); err != nil {
		t.Fatal(err)
	}
	relay(t, s, h, c)
	got := c.took()
	if len(got) != 2 || got[0].call != "pass" || !reflect.DeepEqual(got[0].hop, h) {
		t.Fatalf("carried %+v", got)
	}
	ms := marks(s)
	if len(ms) != 2 || ms[1].What != WhatReleased || ms[1].Note != "the last viewer left" {
		t.Errorf("marks %+v", ms)
	}
	if len(s.PauseFilters()) != 0 {
		t.Errorf("filters left: %v", s.PauseFilters())
	}
}

// Close lets a paused message go unchanged, marked before the session's
// end; a message paused after it goes at once.
func TestCloseLetsHeldMessagesGo(t *testing.T) {
	s, c, h, _, done := pauseEcho(t, t.Context())
	if err := s.Close(errors.New("the host left")); err != nil {
		t.Fatal(err)
	}
	if err := awaitRelay(t, done); err != nil {
		t.Fatal(err)
	}
	relay(t, s, h, c) // still a pause filter, but the session ended
	if got := c.took(); len(got) != 2 || got[0].call != "pass" || got[1].call != "pass" {
		t.Fatalf("carried %+v", got)
	}
	w := whats(s)
	if len(w) < 3 || !reflect.DeepEqual(w[:3], []string{WhatPaused, WhatReleased, WhatEnded}) {
		t.Errorf("marks %v: released comes before ended", w)
	}
	if s.Err() == nil || s.Err().Error() != "the host left" {
		t.Errorf("Err: %v", s.Err())
	}
}

// A paused message whose connection goes away returns ctx's error and
// is carried nowhere.
func TestPausedMessageHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	s, c, _, _, done := pauseEcho(t, ctx)
	cancel()
	if err := awaitRelay(t, done); !errors.Is(err, context.Canceled) {
		t.Fatalf("Relay: %v, want context.Canceled", err)
	}
	if len(c.took()) != 0 || len(s.Held()) != 0 {
		t.Fatalf("carried %+v, held %+v", c.took(), s.Held())
	}
}

// A filter that does not compile is refused and changes nothing.
func TestPauseOnRefusesABadFilter(t *testing.T) {
	s := openSession(t)
	if err := s.PauseOn([]Filter{{Method: "tools/*"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.PauseOn([]Filter{{Method: "["}}); err == nil {
		t.Fatal("a bad pattern was taken")
	}
	if err := s.PauseOn([]Filter{{Dir: "sideways"}}); err == nil {
		t.Fatal("a bad direction was taken")
	}
	if f := s.PauseFilters(); len(f) != 1 || f[0].Method != "tools/*" {
		t.Fatalf("filters %v", f)
	}
}

// An edit is JSON, or CBOR where the message came as CBOR; anything else
// is refused.
func TestCheckEdit(t *testing.T) {
	js := []byte(callTool(1, "echo"))
	cb, err := jsonrpc.JSONToCBOR(js)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		enc  proto.Encoding
		body []byte
		want proto.Encoding
		ok   bool
	}{
		{proto.EncJSON, js, proto.EncJSON, true},
		{proto.EncCBOR, js, proto.EncCBOR, true}, // written in CBOR, as its wire
		{proto.EncCBOR, cb, proto.EncCBOR, true},
		{proto.EncJSON, cb, 0, false},
		{proto.EncJSON, []byte(`{"id":1}`), 0, false},
		{proto.EncJSON, []byte(`[]`), 0, false},
	} {
		body, got, err := checkEdit(c.enc, c.body)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("%s %q: %v, %v", c.enc, c.body, got, err)
		}
		if c.ok && c.want == proto.EncCBOR && !bytes.Equal(body, cb) {
			t.Errorf("%s %q: goes as %q, want the CBOR %q", c.enc, c.body, body, cb)
		}
	}
}
