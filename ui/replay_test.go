package ui

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/rectest"
	"github.com/mcpscope/mcpscope/recordings"
)

// recordSample records sampleStore's frames and marks through a Writer
// teed beside a live store, as the TUI records, and returns the live
// store and the recording's path.
func recordSample(t *testing.T, transport string) (*capture.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sample"+recordings.Ext)
	last := t0
	clock := func() time.Time { return last } // marks at the time of the frame before them
	w, err := recordings.Create(path, recordings.Header{Target: "wt://127.0.0.1:4433/mcp", Transport: transport, Started: t0}, recordings.Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	live := capture.NewStore(capture.Config{})
	sampleInto(t, capture.Tee(live, capture.SinkFunc(func(f *capture.Frame) uint64 { last = f.Time; return 0 }), w).(capture.Tap))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return live, path
}

// newTestReplay opens path in a Replay sized w×h and plays it at speed;
// the Player's position is awaited with until.
func newTestReplay(t *testing.T, path string, speed float64, w, h int) *Replay {
	t.Helper()
	p, err := recordings.NewPlayer(path, capture.Config{}, speed)
	if err != nil {
		t.Fatal(err)
	}
	r := NewReplay(p)
	t.Cleanup(func() { _ = r.Close() })
	r.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return r
}

// settle waits until the player's position satisfies ok, then lets the
// Model read the store; the deadline only guards against a hang.
func settle(t *testing.T, r *Replay, ok func(recordings.Position) bool) {
	t.Helper()
	deadline := time.Now().Add(guard.Hang)
	for !ok(r.player.Position()) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for the player to move; it stayed at %+v", guard.Hang, r.player.Position())
		}
		time.Sleep(2 * time.Millisecond)
	}
	r.Update(refreshMsg{at: t0})
}

// done is a player that applied everything and counted its frames.
func done(pos recordings.Position) bool { return pos.Done && !pos.Playing && pos.Total >= 0 }

// A replay shows every pane exactly as the live session showed it: the
// traffic, streams, datagrams, detail, hex and stderr of the same frames,
// read back from the recording.
func TestReplayPanesMatchTheLiveSession(t *testing.T) {
	live, path := recordSample(t, "wt")
	lm := newTestModel(t, live, 140, 40)
	r := newTestReplay(t, path, recordings.SpeedAtOnce, 140, 40)
	settle(t, r, done)
	rm := r.inner
	for _, m := range []*Model{lm, rm} {
		selectWhere(t, m, isMethod("initialize"))
		m.detail.SetSize(70, 20)
		m.detail.prepare()
		m.hex.SetSize(80, 6)
	}
	for name, render := range map[string]func(m *Model) string{
		"traffic":   func(m *Model) string { return m.traffic.Render(100, 24, true) },
		"streams":   func(m *Model) string { return m.streams.Render(90, 6, true) },
		"datagrams": func(m *Model) string { return m.datagrams.Render(90, 8, true) },
		"detail":    func(m *Model) string { return m.detail.Render(70, 20, true) },
		"hex":       func(m *Model) string { return m.hex.Render(80, 6, true) },
		"stderr":    func(m *Model) string { return m.stderr.Render(50, 4, true) },
	} {
		if got, want := ansi.Strip(render(rm)), ansi.Strip(render(lm)); got != want {
			t.Errorf("%s pane replayed:\n%s\nlive:\n%s", name, got, want)
		}
	}
	golden(t, "replay_screen", screenText(rm))
}

// The timeline keys: B goes back to the start (a rebuilt store, a new
// Model), . and , step one frame, > jumps a second of recorded time, E to
// the end, space plays; the status bar says where the replay stands.
func TestReplayTimelineKeys(t *testing.T) {
	_, path := recordSample(t, "wt")
	r := newTestReplay(t, path, recordings.SpeedAtOnce, 140, 40)
	settle(t, r, done)
	total := r.player.Position().Frames
	step := func(k string, ok func(recordings.Position) bool) {
		t.Helper()
		r.Update(keyPress(k))
		settle(t, r, func(pos recordings.Position) bool { return !pos.Seeking && ok(pos) })
		select {
		case rb := <-r.player.Rebuilds():
			r.Update(replayRebuiltMsg{store: rb.Store})
		default:
		}
		r.Update(refreshMsg{at: t0})
	}
	step("B", func(pos recordings.Position) bool { return pos.Frames == 0 })
	if s := screenText(r.inner); !strings.Contains(s, "REPLAY ⏸ paused · 1× · frame 0/") || !strings.Contains(s, "no frames yet") {
		t.Fatalf("at the start:\n%s", s)
	}
	step(".", func(pos recordings.Position) bool { return pos.Frames == 1 })
	step(".", func(pos recordings.Position) bool { return pos.Frames == 2 })
	step(",", func(pos recordings.Position) bool { return pos.Frames == 1 })
	if n := r.inner.cfg.Store.Len(); n != 1 {
		t.Errorf("one frame back: the store shows %d frames", n)
	}
	step(">", func(pos recordings.Position) bool { return pos.Frames > 1 })
	if s := screenText(r.inner); strings.Contains(s, "+0.005s") {
		t.Errorf("a second on: %s", lastLine(s))
	}
	step("E", func(pos recordings.Position) bool { return pos.Frames == total })
	if s := screenText(r.inner); !strings.Contains(s, "REPLAY ■ end · 1×") {
		t.Errorf("at the end, the status bar does not say the speed: %s", lastLine(s))
	}
	r.Update(keyPress("s")) // 1× → 10×; B then goes back to the recorded pace
	settle(t, r, func(pos recordings.Position) bool { return pos.Speed == recordings.SpeedFast })
	r.Update(keyPress("B"))
	settle(t, r, func(pos recordings.Position) bool { return !pos.Seeking && pos.Frames == 0 })
	r.Update(keyPress("space"))
	settle(t, r, func(pos recordings.Position) bool { return pos.Playing })
	if s := screenText(r.inner); !strings.Contains(s, "REPLAY ▶ 1×") {
		t.Errorf("playing: %s", lastLine(s))
	}
}

// B then space plays from the start at the recorded pace, whatever speed
// the replay played at before (it opens at once).
func TestReplayStartPlaysAtTheRecordedPace(t *testing.T) {
	_, path := recordSample(t, "wt")
	r := newTestReplay(t, path, recordings.SpeedAtOnce, 140, 40)
	settle(t, r, done)
	if s := screenText(r.inner); !strings.Contains(s, "REPLAY ■ end · at once") {
		t.Errorf("at the end, the status bar does not say the speed: %s", lastLine(s))
	}
	r.Update(keyPress("B"))
	settle(t, r, func(pos recordings.Position) bool { return !pos.Seeking && !pos.Playing && pos.Frames == 0 })
	r.Update(keyPress("space"))
	settle(t, r, func(pos recordings.Position) bool { return pos.Playing || pos.Frames > 0 })
	if pos := r.player.Position(); pos.Speed != recordings.SpeedLive {
		t.Fatalf("B then space plays at %s, not 1×: %+v", speedName(pos.Speed), pos)
	}
	if s := screenText(r.inner); !strings.Contains(s, "REPLAY ▶ 1×") {
		t.Errorf("playing: %s", lastLine(s))
	}
}

// Every key that would send to a server or act on a live session is
// refused with a reason; the filter still works.
func TestReplayIsReadOnly(t *testing.T) {
	_, path := recordSample(t, "wt")
	r := newTestReplay(t, path, recordings.SpeedAtOnce, 140, 40)
	settle(t, r, done)
	for _, k := range []string{"t", "R", "a", "o", "e", ":", "ctrl+r", "r", "i"} {
		_, cmd := r.Update(keyPress(k))
		if s := lastLine(screenText(r.inner)); cmd != nil || !strings.Contains(s, "replay: read-only") || r.inner.overlay != nil {
			t.Errorf("%s: %s", k, s)
		}
	}
	r.Update(keyPress("/"))
	for _, k := range "tools" {
		r.Update(keyPress(string(k)))
	}
	r.Update(keyPress("enter"))
	r.Update(refreshMsg{at: t0})
	if got := r.inner.filterText(); got != "tools" {
		t.Errorf("the filter is %q", got)
	}
}

// An HTTP recording shows the panes of an HTTP link: SSE streams, no
// stderr.
func TestReplayPanesFollowTheTransport(t *testing.T) {
	_, path := recordSample(t, "http")
	r := newTestReplay(t, path, recordings.SpeedAtOnce, 140, 40)
	settle(t, r, done)
	if p := r.inner.panes; !p[paneStreams] || p[paneStderr] || p[paneDatagrams] {
		t.Errorf("panes %v", p)
	}
}

// A recording cut short replays up to the torn line and says so.
func TestReplayOfATornRecording(t *testing.T) {
	_, path := recordSample(t, "wt")
	rectest.Cut(t, path, 30)
	r := newTestReplay(t, path, recordings.SpeedAtOnce, 160, 40)
	settle(t, r, done)
	if s := lastLine(screenText(r.inner)); !strings.Contains(s, "cut short") {
		t.Errorf("status: %s", s)
	}
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// A replay's Model reads every frame of its store, more than one refresh
// reads, without skipping any; a Model built on a store filled before it
// (a jump back) reads it at once.
func TestReplayReadsEveryFrame(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	for i := range maxScan + 1000 {
		st.Append(&capture.Frame{Time: t0.Add(time.Duration(i)), Dir: capture.In, Conn: "stdio", Raw: []byte("{}\n")})
	}
	_, path := recordSample(t, "stdio")
	r := newTestReplay(t, path, recordings.SpeedAtOnce, 140, 40)
	settle(t, r, done)
	cmd := r.swap(st)
	if cmd == nil {
		t.Fatal("the new Model does not read its store")
	}
	msg, ok := cmd().(refreshMsg)
	if !ok {
		t.Fatalf("the new Model asked for %T, not a refresh", msg)
	}
	for range 3 {
		refreshWhole(r.inner, t0)
	}
	if r.inner.idx.skipped != 0 || r.inner.idx.next != uint64(maxScan+1001) {
		t.Errorf("skipped %d, next %d", r.inner.idx.skipped, r.inner.idx.next)
	}
}

// Frames appended from two goroutines at once reach the recording in the
// store's order: a replay numbers them as live.
func TestRecordingKeepsTheStoresOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "order"+recordings.Ext)
	w, err := recordings.Create(path, recordings.Header{Transport: "wt"}, recordings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := capture.NewStore(capture.Config{})
	sink := capture.Serialized(capture.Tee(st, w).(capture.Tap))
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5000 {
				sink.Append(&capture.Frame{Dir: capture.In, Conn: "wt", Chan: capture.Channel{Kind: []capture.ChannelKind{capture.Control, capture.Datagram}[g]}, Raw: []byte("{}")})
			}
		}()
	}
	wg.Wait()
	_ = w.Close()
	rd, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var last uint64
	for {
		rec, err := rd.Next()
		if err != nil {
			break
		}
		if rec.Kind == recordings.RecFrame {
			if rec.LiveSeq != last+1 {
				t.Fatalf("frame with seq %d after %d", rec.LiveSeq, last)
			}
			last = rec.LiveSeq
		}
	}
	if last != 10000 {
		t.Errorf("%d frames", last)
	}
}

// TestReplayNamesTheRecordedStreams: a replay's streams pane is named
// after the recorded link's streams while it lists none, as a live one is.
func TestReplayNamesTheRecordedStreams(t *testing.T) {
	for transport, want := range map[string]string{"gateway": "Gateway streams", "http": "SSE streams", "wt": "Execution streams"} {
		path := filepath.Join(t.TempDir(), "empty"+recordings.Ext)
		w, err := recordings.Create(path, recordings.Header{Target: "ws://127.0.0.1:1/gateway", Transport: transport, Started: t0}, recordings.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		r := newTestReplay(t, path, recordings.SpeedAtOnce, 160, 40)
		if title := r.inner.streams.Title(); !strings.HasPrefix(title, want) {
			t.Errorf("%s: the streams pane is %q, want %q", transport, title, want)
		}
	}
}
