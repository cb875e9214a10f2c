package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proxy/live"
)

// The TUI on a viewer of the session's live socket (what mcpscope attach
// runs in another process): the host's call shows, a pause filter set
// from the keys holds the next call, and the call edited in the TUI is
// what the server gets; injected from the composer, a request's answer
// shows in the composer and never reaches the host.
func TestAttachOverTheLiveSocket(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	s, c := newProxySession(t), &fakeCarrier{}
	hub, err := live.Serve(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Close)
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	v, err := live.Dial(ctx, hub.Socket())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	bodies := make(chan []byte, 1)
	s.SetInjector(func(_ context.Context, body []byte) error { bodies <- body; return nil })

	r := newTestAttach(t, v, nil, 200, 36)
	if err := relay(t, s, c, capture.Out, hostList); err != nil {
		t.Fatal(err)
	}
	r.waitScreen("host→", "tools/list", "attach echo (proxy of node everything.js stdio)")

	r.Press("p")
	r.typeLine("method=tools/call dir=host")
	r.waitScreen("pausing on method=tools/call dir=host")
	held := relayInBackground(t, s, c, capture.Out, hostCall)
	r.waitScreen("1 message paused (h)", "paused tools/call echo #1")
	r.Press("h")
	r.waitScreen("Paused · 1 message", `"message": "hi"`)
	r.Press("e")
	r.waitScreen("Paused · editing #1 tools/call echo")
	for range 7 {
		r.Press("down")
	}
	r.Press("end")
	for range 3 {
		r.Press("backspace")
	}
	r.TypeText(`over the socket"`)
	r.Press("ctrl+s")
	if err := relayed(t, held); err != nil {
		t.Fatal(err)
	}
	if _, sent := c.snapshot(); len(sent) != 1 || !strings.Contains(sent[0].body, `"message":"over the socket"`) {
		t.Fatalf("the server got %+v, not the call edited over the socket", sent)
	}
	r.Press("esc")
	r.waitScreen("edited tools/call echo #1")

	r.Press(":")
	r.waitScreen("Compose · pick a method")
	r.Press("ctrl+u")
	r.TypeText("ping")
	r.Press("enter")
	r.waitScreen("Compose · request ping")
	r.Press("ctrl+s")
	var id string
	r.Until("the injector got the ping", func() bool {
		select {
		case b := <-bodies:
			_, rest, _ := strings.Cut(string(b), `"id":"`)
			id, _, _ = strings.Cut(rest, `"`)
			return true
		default:
			return false
		}
	})
	if err := relay(t, s, c, capture.In, `{"jsonrpc":"2.0","id":"`+id+`","result":{}}`); err != nil {
		t.Fatal(err)
	}
	r.waitScreen("← result · ping · id " + id + " · injected, kept from the host")
	if passed, _ := c.snapshot(); len(passed) != 1 { // the host's tools/list only
		t.Fatalf("carried to the other side: %q", passed)
	}
}
