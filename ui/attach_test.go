package ui

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/recordings"
)

// Messages of a host and a server.
const (
	hostList   = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	serverList = `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}`
	hostCall   = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`
	serverCall = `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Echo: hi"}]}}`
)

// lineHas reports whether a line of s holds every one of parts.
func lineHas(s string, parts ...string) bool {
	for _, line := range strings.Split(s, "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(line, p)
		}
		if all {
			return true
		}
	}
	return false
}

// A host's tools/list and tools/call through the proxy read as the
// host's and the server's, and the proxy's marks (a paused, forwarded
// call) are rows of their own; the detail of a mark is its JSON.
func TestAttachShowsHostAndServer(t *testing.T) {
	s, c := newProxySession(t), &fakeCarrier{}
	if err := s.PauseOn([]proxy.Filter{{Method: "tools/call", Dir: "host"}}); err != nil {
		t.Fatal(err)
	}
	r := newTestAttach(t, s, nil, 140, 40)
	for _, m := range []struct {
		dir  capture.Dir
		body string
	}{{capture.Out, hostList}, {capture.In, serverList}} {
		if err := relay(t, s, c, m.dir, m.body); err != nil {
			t.Fatal(err)
		}
	}
	held := relayInBackground(t, s, c, capture.Out, hostCall)
	r.Until("the call paused", func() bool { return len(s.Held()) == 1 })
	if err := s.Decide(s.Held()[0].N, proxy.Decision{}); err != nil {
		t.Fatal(err)
	}
	if err := relayed(t, held); err != nil {
		t.Fatal(err)
	}
	if err := relay(t, s, c, capture.In, serverCall); err != nil {
		t.Fatal(err)
	}
	r.refreshed()
	m := r.a.inner
	golden(t, "attach_traffic", m.traffic.Render(110, 10, true))

	screen := r.screen()
	for _, want := range [][]string{{"host→", "tools/list"}, {"←server", "result · tools/list"},
		{"proxy", "paused tools/call"}, {"proxy", "forwarded tools/call"},
		{"attach echo (proxy of node everything.js stdio)"}, {"ATTACH echo ● live", "stdio"}} {
		if !lineHas(screen, want...) {
			t.Errorf("no line of the screen has %q:\n%s", want, screen)
		}
	}
	selectWhere(t, m, func(f *capture.Frame) bool { return f.Chan.Kind == capture.Proxy })
	m.detail.SetSize(80, 14)
	m.detail.prepare()
	golden(t, "attach_detail_mark", m.detail.Render(80, 14, true))
	selectWhere(t, m, isMethod("tools/call"))
	m.detail.prepare()
	if d := m.detail.Render(80, 14, true); !strings.Contains(d, "from the host") {
		t.Errorf("the detail of the host's call does not say who sent it:\n%s", d)
	}
}

// The composer injects into the session: the injector gets the request
// under an id of the proxy's own, and the server's answer to it is kept
// from the host and shown as kept.
func TestAttachInjectFromTheComposer(t *testing.T) {
	s, c := newProxySession(t), &fakeCarrier{}
	bodies := make(chan []byte, 1)
	s.SetInjector(func(_ context.Context, body []byte) error { bodies <- body; return nil })
	r := newTestAttach(t, s, nil, 220, 36)
	r.Press(":")
	r.waitScreen("Compose · pick a method")
	r.Press("ctrl+u")
	r.TypeText("tools/list")
	r.Press("enter")
	r.waitScreen("Compose · request tools/list")
	r.Press("ctrl+s")
	var body []byte
	r.Until("the injector got the request", func() bool {
		select {
		case body = <-bodies:
			return true
		default:
			return false
		}
	})
	var m struct {
		ID     string `json:"id"`
		Method string `json:"method"`
	}
	if err := json.Unmarshal(body, &m); err != nil || m.Method != "tools/list" || !strings.HasPrefix(m.ID, "mcpscope-") {
		t.Fatalf("injected %s (%v): want tools/list under an id of the proxy's namespace", body, err)
	}
	answer := `{"jsonrpc":"2.0","id":"` + m.ID + `","result":{"tools":[]}}`
	if err := relay(t, s, c, capture.In, answer); err != nil {
		t.Fatal(err)
	}
	if passed, _ := c.snapshot(); len(passed) != 0 {
		t.Fatalf("the answer to the injected request reached the host: %q", passed)
	}
	r.refreshed()
	r.waitScreen("← result · tools/list · id "+m.ID+" · injected, kept from the host", `"tools": []`)
	r.Press("esc", "esc", "esc") // the composer closes
	r.refreshed()
	r.waitScreen("injected tools/list · id "+m.ID, "kept from host · answer to tools/list · id "+m.ID)
	selectWhere(t, r.a.inner, isMethod("tools/list"))
	r.a.inner.detail.prepare()
	if d := r.a.inner.detail.Render(100, 10, true); !strings.Contains(d, "injected by a viewer, to the server") {
		t.Errorf("the detail of the injected request does not say who sent it:\n%s", d)
	}
	screen := r.screen()
	for _, want := range [][]string{{"viewer→", "tools/list"}, {"←server", "result · tools/list"}} {
		if !lineHas(screen, want...) {
			t.Errorf("no line of the screen has %q:\n%s", want, screen)
		}
	}
}

// Keys that need a connection of mcpscope's own are refused, saying why.
func TestAttachRefusesKeysOfAConnection(t *testing.T) {
	r := newTestAttach(t, newProxySession(t), nil, 140, 30)
	r.Press("t")
	r.waitScreen("attach: tools/list needs a connection of mcpscope's own; : injects into the session")
	r.Press("r")
	r.waitScreen("attach: reconnect needs a connection of mcpscope's own")
}

// Faults loaded from a file at F are in force and named in the status
// bar; an empty path clears them; a file that cannot be read says why.
func TestAttachFaultsFromAFile(t *testing.T) {
	s := newProxySession(t)
	r := newTestAttach(t, s, nil, 200, 30)
	path := filepath.Join(t.TempDir(), "faults.yaml")
	file := "faults:\n  - match: {method: tools/call, tool: echo, dir: host}\n    delay: 2s\n  - cut: true\n    after: 10\n"
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	r.Press("F")
	r.typeLine(path)
	r.waitScreen("faults: delay 2s on method=tools/call tool=echo dir=host; cut on every message, after 10",
		"2 fault rules in force from")
	if rules := s.Faults(); len(rules) != 2 || rules[0].Action != proxy.FaultDelay || rules[1].Action != proxy.FaultCut {
		t.Fatalf("rules in force: %+v", rules)
	}
	r.Press("F")
	r.typeLine("")
	r.waitScreen("faults cleared")
	if rules := s.Faults(); len(rules) != 0 {
		t.Fatalf("rules left after clearing: %+v", rules)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("faults:\n  - delay: soon\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.Press("F")
	r.typeLine(bad)
	r.waitScreen("faults from "+bad+":", "fault rule 1")
	if rules := s.Faults(); len(rules) != 0 {
		t.Fatalf("a bad file put rules in force: %+v", rules)
	}
}

// When the session ends its frames stay readable and the status bar
// says so; the next session then takes its place, with the filter and
// the focus kept.
func TestAttachSessionEndsThenTheNextOne(t *testing.T) {
	s, c := newProxySession(t), &fakeCarrier{}
	nexts := make(chan AttachSource, 1)
	next := func(ctx context.Context) (AttachSource, error) {
		select {
		case n := <-nexts:
			return n, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	r := newTestAttach(t, s, next, 140, 30)
	if err := relay(t, s, c, capture.Out, hostList); err != nil {
		t.Fatal(err)
	}
	r.Press("/")
	r.typeLine("tools")
	r.Press("4")
	if err := s.Close(errors.New("the host closed stdin")); err != nil {
		t.Fatal(err)
	}
	r.waitScreen("ATTACH echo ■ session ended: the host closed stdin", "waiting for the next session…")
	r.Press("1")
	r.waitScreen("host→", "tools/list")
	r.Press("4")

	s2 := newProxySession(t)
	nexts <- s2
	r.Until("the next session", func() bool { return r.a.src == s2 })
	r.waitScreen("ATTACH echo ● live", "the next session of echo started")
	if r.a.inner.focus != paneDetail {
		t.Errorf("the focus moved from the detail to pane %d", r.a.inner.focus+1)
	}
	if got := r.a.inner.filterText(); got != "tools" {
		t.Errorf("the filter after the swap is %q", got)
	}
	if err := relay(t, s2, c, capture.Out, hostCall); err != nil {
		t.Fatal(err)
	}
	r.Press("1")
	r.refreshed()
	r.waitScreen("tools/call")
	if lineHas(r.screen(), "tools/list") {
		t.Errorf("the old session's frames show in the new one:\n%s", r.screen())
	}
}

// A replay of a proxy's recording says host and server too.
func TestAttachReplayOfAProxyRecording(t *testing.T) {
	path := filepath.Join(t.TempDir(), "proxy"+recordings.Ext)
	s, err := proxy.Open(proxy.Options{Name: "echo", Target: "node everything.js stdio", Transport: "stdio", Record: path, Clock: (&stepClock{}).now})
	if err != nil {
		t.Fatal(err)
	}
	c := &fakeCarrier{}
	for _, m := range []struct {
		dir  capture.Dir
		body string
	}{{capture.Out, hostList}, {capture.In, serverList}} {
		if err := relay(t, s, c, m.dir, m.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(nil); err != nil {
		t.Fatal(err)
	}
	rp := newTestReplay(t, path, recordings.SpeedAtOnce, 140, 30)
	settle(t, rp, done)
	text := plainView(rp.inner)
	for _, want := range [][]string{{"host→", "tools/list"}, {"←server", "result · tools/list"}, {"proxy", "session ended: closed"}} {
		if !lineHas(text, want...) {
			t.Errorf("no line of the replay has %q:\n%s", want, text)
		}
	}
}

// missedSource is a session whose viewer missed frames.
type missedSource struct{ *proxy.Session }

func (missedSource) Missed() int64 { return 5 }

// What the viewer missed shows in the status bar.
func TestAttachSaysWhatTheViewerMissed(t *testing.T) {
	r := newTestAttach(t, missedSource{newProxySession(t)}, nil, 160, 30)
	r.waitScreen("ATTACH echo ● live · missed 5 frames")
}

// The traffic filter keeps the marks of the calls it shows, and its word
// proxy shows the marks alone.
func TestAttachFilterKeepsMarks(t *testing.T) {
	s, c := newProxySession(t), &fakeCarrier{}
	if err := s.PauseOn([]proxy.Filter{{Method: "tools/call", Dir: "host"}}); err != nil {
		t.Fatal(err)
	}
	r := newTestAttach(t, s, nil, 220, 30)
	if err := relay(t, s, c, capture.Out, hostList); err != nil {
		t.Fatal(err)
	}
	held := relayInBackground(t, s, c, capture.Out, hostCall)
	r.Until("the call paused", func() bool { return len(s.Held()) == 1 })
	if err := s.Decide(s.Held()[0].N, proxy.Decision{Drop: true}); err != nil {
		t.Fatal(err)
	}
	if err := relayed(t, held); err != nil {
		t.Fatal(err)
	}
	r.refreshed()
	r.Press("/")
	r.typeLine("tools/call")
	r.waitScreen("paused tools/call echo #1", "dropped tools/call echo #1", "host→")
	if lineHas(r.screen(), "tools/list") {
		t.Errorf("the filter tools/call kept tools/list:\n%s", r.screen())
	}
	r.Press("/")
	r.typeLine("proxy")
	r.waitScreen("filter \"proxy\" · 2 matches")
	if lineHas(r.screen(), "host→") {
		t.Errorf("the filter proxy kept a message:\n%s", r.screen())
	}
}

// The header's transport says which panes the session fills.
func TestAttachPanesFollowTheTransport(t *testing.T) {
	for _, tc := range []struct {
		transport string
		want      paneSet
	}{
		{"stdio", paneSet{paneTraffic: true, paneDetail: true, paneHex: true, paneStderr: true}},
		{"http", paneSet{paneTraffic: true, paneStreams: true, paneDetail: true, paneHex: true}},
		{"wt", paneSet{paneTraffic: true, paneStreams: true, paneDatagrams: true, paneDetail: true, paneHex: true}},
	} {
		s, err := proxy.Open(proxy.Options{Name: "p", Transport: tc.transport, NoRecord: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close(nil) })
		a := NewAttach(s, nil)
		if a.inner.panes != tc.want {
			t.Errorf("%s: panes %v, want %v", tc.transport, a.inner.panes, tc.want)
		}
		a.Close()
	}
}

// A fault's mark says what the rule did; a viewer told it missed frames
// says how many.
func TestAttachFaultAndMissedMarks(t *testing.T) {
	s, c := newProxySession(t), &fakeCarrier{}
	if err := s.SetFaults([]proxy.Fault{{Match: proxy.Filter{Method: "tools/call"}, Action: proxy.FaultDelay, Delay: time.Millisecond}}); err != nil {
		t.Fatal(err)
	}
	r := newTestAttach(t, s, nil, 220, 30)
	if err := relay(t, s, c, capture.Out, hostCall); err != nil {
		t.Fatal(err)
	}
	s.Tap().Append(proxy.Mark{What: proxy.WhatMissed, Note: "12 frames skipped: this viewer fell behind the session"}.Frame(capture.In, ""))
	r.refreshed()
	r.waitScreen("fault: delay 1ms · tools/call echo: held 1ms before carrying it on", "viewer missed 12 frames",
		"faults: delay 1ms on method=tools/call")
}
