package proxy

import (
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/recordings"
)

// The recording holds every frame and mark the store got, in order, byte
// for byte, under a header naming the proxied session.
func TestRecordingHoldsEveryFrameAndMark(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	s, err := Open(Options{Name: "rec", Record: path, Transport: "stdio", Target: "server --stdio", Log: t.Logf,
		Faults: []Fault{{Match: Filter{Method: "tools/list"}, Action: FaultDrop}}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Recording() != path {
		t.Fatalf("Recording %q", s.Recording())
	}
	var log injectorLog
	s.SetInjector(log.inject)
	c := &fakeCarrier{}
	relay(t, s, hop(capture.Out, request(1, "initialize", `{"protocolVersion":"2025-11-25"}`)), c)
	relay(t, s, hop(capture.In, result(1)), c)
	relay(t, s, hop(capture.Out, request(2, "tools/list", "{}")), c)
	relay(t, s, hop(capture.In, "garbage from the server"), c)
	if _, err := s.Inject(t.Context(), []byte(request(0, "ping", "{}"))); err != nil {
		t.Fatal(err)
	}
	s.Tap().Append(&capture.Frame{Dir: capture.In, Chan: capture.Channel{Kind: capture.Stderr}, Raw: []byte("a log line")})
	if err := s.Close(nil); err != nil {
		t.Fatal(err)
	}
	live := s.Store().Window(0, s.Store().Len())

	r, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if h := r.Header(); h.Proxy != "rec" || h.Transport != "stdio" || h.Target != "server --stdio" {
		t.Fatalf("header %+v", h)
	}
	var got []*capture.Frame
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Kind == recordings.RecFrame {
			got = append(got, rec.Frame)
		}
	}
	if !r.Ended() {
		t.Error("the recording has no end")
	}
	if len(got) != len(live) {
		t.Fatalf("recorded %d frames, the store holds %d", len(got), len(live))
	}
	var kinds []string
	for i, f := range got {
		if string(f.Raw) != string(live[i].Raw) || f.Dir != live[i].Dir || f.Chan.Kind != live[i].Chan.Kind {
			t.Errorf("frame %d: recorded %s %q, live %s %q", i, f.Dir, f.Raw, live[i].Dir, live[i].Raw)
		}
		if m, ok := ParseMark(f); ok {
			kinds = append(kinds, m.What)
		}
	}
	if strings.Join(kinds, " ") != "fault injected ended" {
		t.Errorf("recorded marks %v", kinds)
	}
}

// A recording that cannot be written (a full disk) stops; the session
// goes on carrying messages and says so with a mark.
func TestRecordingOnAFullDiskStopsAndTheSessionGoesOn(t *testing.T) {
	var said []string
	s, err := Open(Options{Name: "full", Record: "/dev/full", Log: func(format string, args ...any) {
		said = append(said, format)
	}})
	if err != nil {
		t.Fatal(err)
	}
	c := &fakeCarrier{}
	for i := range 3 {
		relay(t, s, hop(capture.Out, request(i, "ping", "{}")), c)
	}
	waitFor(t, s, "the recording's mark", func() bool {
		for _, m := range marks(s) {
			if m.What == WhatRecording && strings.Contains(m.Note, "no space left") {
				return true
			}
		}
		return false
	})
	relay(t, s, hop(capture.In, result(2)), c)
	if got := c.took(); len(got) != 4 {
		t.Fatalf("carried %d of 4", len(got))
	}
	if err := s.Close(nil); !errors.Is(err, recordings.ErrStopped) {
		t.Fatalf("Close: %v, want the recording's stop", err)
	}
	n := 0
	for _, w := range whats(s) {
		if w == WhatRecording {
			n++
		}
	}
	if n != 1 || len(said) != 1 {
		t.Fatalf("the stop marked %d times, said %d times (%v)", n, len(said), whats(s))
	}
}
