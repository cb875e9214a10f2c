package proxy

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// frameAt is the frame with Seq seq in the store, or nil.
func frameAt(s *Session, seq uint64) *capture.Frame {
	for _, f := range s.Store().Window(0, s.Store().Len()) {
		if f.Seq == seq {
			return f
		}
	}
	return nil
}

// An injected mark names its message by Seq, though other connections'
// frames come in between while it is injected.
func TestInjectedMarkNamesItsFrame(t *testing.T) {
	s := openSession(t)
	s.SetInjector(func(context.Context, []byte) error { return nil })
	c := &fakeCarrier{}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				_ = s.Relay(context.Background(), hop(capture.In, `{"jsonrpc":"2.0","method":"notifications/progress"}`), c)
			}
		})
	}
	const n = 2000
	ids := map[string]bool{}
	for range n {
		id, err := s.Inject(t.Context(), []byte(`{"method":"ping","id":1}`))
		if err != nil {
			close(stop)
			wg.Wait()
			t.Fatal(err)
		}
		ids[`"`+id+`"`] = true
	}
	close(stop)
	wg.Wait()
	named := 0
	for _, m := range marks(s) {
		if m.What != WhatInjected {
			continue
		}
		f := frameAt(s, m.Seq)
		if f == nil || f.Msg == nil || f.Msg.Method != "ping" || f.Msg.ID.String() != m.ID || !ids[m.ID] {
			t.Fatalf("the injected mark %+v names %+v, not its ping", m, f)
		}
		named++
	}
	if named != n {
		t.Fatalf("%d injected marks, want %d", named, n)
	}
}

// An edited mark names the frame of what went, and a CBOR connection's
// edit written in JSON goes, and is captured, in CBOR.
func TestEditOnACBORWireGoesAndIsCapturedInCBOR(t *testing.T) {
	s := openSession(t)
	if err := s.PauseOn([]Filter{{}}); err != nil {
		t.Fatal(err)
	}
	body, err := jsonrpc.JSONToCBOR([]byte(callTool(1, "x")))
	if err != nil {
		t.Fatal(err)
	}
	h := Hop{Dir: capture.Out, Chan: capture.Channel{Kind: capture.Control}, Raw: body, Body: body, Enc: proto.EncCBOR}
	c := &fakeCarrier{}
	done := background(t.Context(), s, h, c)
	held := heldOne(t, s)
	if err := s.Decide(held.N, Decision{Body: []byte(callTool(1, "y"))}); err != nil {
		t.Fatal(err)
	}
	if err := awaitRelay(t, done); err != nil {
		t.Fatal(err)
	}
	got := c.took()
	if len(got) != 1 || got[0].call != "send" {
		t.Fatalf("carried %+v, want one Send", got)
	}
	sent, err := jsonrpc.Decode(proto.EncCBOR, got[0].body)
	if err != nil || toolOf(sent) != "y" {
		t.Fatalf("the CBOR wire is sent %q (%v), not the edit in CBOR", got[0].body, err)
	}
	ms := marks(s)
	edited := ms[len(ms)-1]
	f := frameAt(s, edited.Seq)
	if edited.What != WhatEdited || f == nil || f.Enc != proto.EncCBOR || string(f.Raw) != string(got[0].body) {
		t.Fatalf("the edited mark %+v names %+v, not the CBOR that went", edited, f)
	}
}

// A message paused when its connection ends is marked dropped: nothing
// is left paused without an outcome.
func TestPauseEndedByTheConnectionIsMarkedDropped(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	s, c, _, _, done := pauseEcho(t, ctx)
	cancel()
	if err := awaitRelay(t, done); !errors.Is(err, context.Canceled) {
		t.Fatalf("Relay: %v, want the context's error", err)
	}
	if w := whats(s); !reflect.DeepEqual(w, []string{WhatPaused, WhatDropped}) {
		t.Fatalf("marks %v, want paused then dropped", w)
	}
	if ms := marks(s); !strings.Contains(ms[1].Note, "connection ended") || ms[1].Held != ms[0].Held {
		t.Fatalf("the drop mark %+v does not say the connection ended", ms[1])
	}
	if len(c.took()) != 0 || len(s.Held()) != 0 {
		t.Fatalf("carried %+v, held %+v", c.took(), s.Held())
	}
}

// A duplicate fault on a paused message waits for the viewer: a drop
// carries no copy at all, a forward carries both.
func TestDuplicateOfAPausedMessageFollowsTheDecision(t *testing.T) {
	for _, c := range []struct {
		name  string
		d     Decision
		want  int
		final string
	}{
		{"drop", Decision{Drop: true}, 0, WhatDropped},
		{"forward", Decision{}, 2, WhatForwarded},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := openSession(t, Fault{Action: FaultDuplicate, Match: Filter{Method: "tools/call"}})
			if err := s.PauseOn([]Filter{{Method: "tools/call"}}); err != nil {
				t.Fatal(err)
			}
			fc := &fakeCarrier{}
			done := background(t.Context(), s, hop(capture.Out, callTool(1, "x")), fc)
			held := heldOne(t, s)
			if n := len(fc.took()); n != 0 {
				t.Fatalf("%d copies carried before the viewer decided", n)
			}
			if err := s.Decide(held.N, c.d); err != nil {
				t.Fatal(err)
			}
			if err := awaitRelay(t, done); err != nil {
				t.Fatal(err)
			}
			if n := len(fc.took()); n != c.want {
				t.Fatalf("%d copies carried, want %d", n, c.want)
			}
			if w := whats(s); !reflect.DeepEqual(w, []string{WhatFault, WhatPaused, c.final}) {
				t.Fatalf("marks %v", w)
			}
		})
	}
}

// An injected "id": null is refused with words that say what to do, and
// nothing goes to the server.
func TestInjectRefusesANullID(t *testing.T) {
	s := openSession(t)
	sent := 0
	s.SetInjector(func(context.Context, []byte) error { sent++; return nil })
	_, err := s.Inject(t.Context(), []byte(`{"method":"tools/list","id":null}`))
	if err == nil || !strings.Contains(err.Error(), "cannot be null") {
		t.Fatalf("Inject: %v, want a refusal of the null id", err)
	}
	if sent != 0 || len(s.Store().Window(0, s.Store().Len())) != 0 {
		t.Fatalf("a refused message went (%d) or was captured", sent)
	}
}
