package live

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/recordings"
)

func call(i int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"n":%d}}}`, i, i)
}

func TestLiveTwoViewersGetEveryFrameInOrder(t *testing.T) {
	s := openSession(t, "everything", capture.Config{}, time.Time{})
	h := serve(t, s)
	v1, v2 := dial(t, h), dial(t, h)
	c := &carrier{}
	var want []string
	for i := 1; i <= 300; i++ {
		want = append(want, call(i))
		relay(t, s, c, capture.Out, call(i))
		answer := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[]}}`, i)
		want = append(want, answer)
		relay(t, s, c, capture.In, answer)
	}
	for i, v := range []*Viewer{v1, v2} {
		sub, cancel := v.Store().Subscribe()
		eventually(t, fmt.Sprintf("viewer %d's frames", i+1), sub, func() bool { return len(messages(v.Store())) >= len(want) })
		cancel()
		if got := messages(v.Store()); !slices.Equal(got, want) {
			t.Errorf("viewer %d got %d messages, not the %d relayed in order", i+1, len(got), len(want))
		}
		if hd := v.Header(); hd.Proxy != "everything" || hd.Target != "fake-server --flag" || hd.Transport != "stdio" {
			t.Errorf("viewer %d's header: %+v", i+1, hd)
		}
		if v.Missed() != 0 {
			t.Errorf("viewer %d missed %d frames", i+1, v.Missed())
		}
	}
	// Who sent each frame survives the trip: the host's calls go out.
	for _, f := range v1.Store().Window(0, 4) {
		if f.Chan.Kind == capture.Control && f.Msg != nil && f.Msg.Method == "tools/call" && f.Dir != capture.Out {
			t.Errorf("a host's call arrived as %v", f.Dir)
		}
	}
}

func TestLiveLateViewerGetsWhatTheStoreHolds(t *testing.T) {
	s := openSession(t, "late", capture.Config{MaxFrames: 20}, time.Time{})
	h := serve(t, s)
	c := &carrier{}
	for i := 1; i <= 50; i++ {
		relay(t, s, c, capture.Out, call(i))
	}
	v := dial(t, h)
	sub, cancel := v.Store().Subscribe()
	defer cancel()
	eventually(t, "the store's 20 frames", sub, func() bool { return len(messages(v.Store())) >= 20 })
	got := messages(v.Store())
	if len(got) != 20 || got[0] != call(31) || got[19] != call(50) {
		t.Errorf("the late viewer got %d messages (%.40q … ), want the 20 the store holds", len(got), got)
	}
	if v.Missed() != 0 {
		t.Errorf("a late viewer was told it missed %d frames it was never sent", v.Missed())
	}
	// It is told first that 30 frames were let go before it joined, so
	// that an answer to a request among them is no surprise to it.
	first := v.Store().Window(0, 1)
	if m, ok := proxy.ParseMark(first[0]); !ok || m.What != proxy.WhatJoined || !strings.HasPrefix(m.Note, "30 ") {
		t.Errorf("the late viewer's first frame is %s, want a joined mark of 30 frames", first[0].Raw)
	}
}

func TestLiveViewerThatLeavesReleasesHeldMessages(t *testing.T) {
	s := openSession(t, "leaver", capture.Config{}, time.Time{})
	h := serve(t, s)
	v := dial(t, h)
	if err := v.PauseOn([]proxy.Filter{{Method: "tools/call"}}); err != nil {
		t.Fatal(err)
	}
	c := &carrier{}
	relayed := make(chan struct{})
	go func() {
		defer close(relayed)
		relay(t, s, c, capture.Out, call(1))
	}()
	eventually(t, "the call to be held", nil, func() bool { return len(v.Held()) == 1 })
	if held := v.Held()[0]; held.Method != "tools/call" || held.Tool != "echo" || string(held.Body) != call(1) {
		t.Errorf("held: %+v", held)
	}
	v.Close()
	select {
	case <-relayed:
	case <-time.After(guard.Hang):
		t.Fatal("the held call was not released when the last viewer left")
	}
	if passed, _ := c.counts(); passed != 1 {
		t.Errorf("the released call went on %d times", passed)
	}
	if f := s.PauseFilters(); len(f) != 0 {
		t.Errorf("pause filters left in force: %v", f)
	}
	// The hub is healthy: the next viewer attaches and sees the traffic.
	v2 := dial(t, h)
	relay(t, s, c, capture.Out, call(2))
	sub, cancel := v2.Store().Subscribe()
	defer cancel()
	eventually(t, "the next viewer's frames", sub, func() bool { return slices.Contains(messages(v2.Store()), call(2)) })
	var released bool
	for _, f := range v2.Store().Window(0, v2.Store().Len()) {
		if m, ok := proxy.ParseMark(f); ok && m.What == proxy.WhatReleased && m.Note == "no viewer left" {
			released = true
		}
	}
	if !released {
		t.Error("no released mark says why the call went on")
	}
}

func TestLiveGarbageFromAViewer(t *testing.T) {
	s := openSession(t, "garbage", capture.Config{}, time.Time{})
	h := serve(t, s)
	for _, garbage := range []string{"not json at all\n", `{"ref":1,"op":"explode"}` + "\n", strings.Repeat("x", MaxCommandLine+10) + "\n"} {
		conn, err := net.Dial("unix", h.Socket())
		if err != nil {
			t.Fatal(err)
		}
		go func() { _, _ = conn.Write([]byte(garbage)) }()
		br := bufio.NewReader(conn)
		var bye string
		for bye == "" {
			line, err := readLine(br, maxHubLine)
			if err != nil {
				t.Fatalf("the stream ended (%v) without a bye for %.20q", err, garbage)
			}
			if l, err := decodeHubLine(line); err == nil {
				bye = l.Bye
			}
		}
		if !strings.Contains(bye, "command") {
			t.Errorf("the bye for %.20q says %q", garbage, bye)
		}
		conn.Close()
	}
	eventually(t, "the dropped viewers to leave", nil, func() bool { return h.Viewers() == 0 })
	v := dial(t, h)
	relay(t, s, &carrier{}, capture.Out, call(7))
	sub, cancel := v.Store().Subscribe()
	defer cancel()
	eventually(t, "a good viewer's frames", sub, func() bool { return slices.Contains(messages(v.Store()), call(7)) })
}

func TestLiveSocketAndDirectoryAreThisUsersOnly(t *testing.T) {
	s := openSession(t, "modes", capture.Config{}, time.Time{})
	h := serve(t, s)
	fi, err := os.Stat(h.Socket())
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&os.ModeSocket == 0 || fi.Mode().Perm() != 0o600 {
		t.Errorf("the socket's mode is %v, want a socket of 0600", fi.Mode())
	}
	di, err := os.Stat(filepath.Dir(h.Socket()))
	if err != nil {
		t.Fatal(err)
	}
	if di.Mode().Perm() != 0o700 {
		t.Errorf("the runtime directory's mode is %v, want 0700", di.Mode().Perm())
	}
	open := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(open, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := ensurePrivate(open); err == nil || !strings.Contains(err.Error(), "open to other users") {
		t.Errorf("a directory of mode 0777 was taken: %v", err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(filepath.Dir(h.Socket()), link); err != nil {
		t.Fatal(err)
	}
	if err := ensurePrivate(link); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a symbolic link was taken: %v", err)
	}
	// $XDG_RUNTIME_DIR/mcpscope open to others: the next candidate serves.
	run := t.TempDir()
	if err := os.Mkdir(filepath.Join(run, "mcpscope"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(run, "mcpscope"), 0o777); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_RUNTIME_DIR", run)
	t.Setenv("TMPDIR", t.TempDir())
	d, err := Dir()
	if err != nil || strings.HasPrefix(d, run) {
		t.Errorf("Dir() = %q, %v: it took a directory open to others", d, err)
	}
}

func TestLiveSessionThatEndsStaysReadable(t *testing.T) {
	s := openSession(t, "ends", capture.Config{}, time.Time{})
	h := serve(t, s)
	v := dial(t, h)
	relay(t, s, &carrier{}, capture.Out, call(1))
	if err := s.Close(nil); err != nil {
		t.Fatal(err)
	}
	h.Close()
	select {
	case <-v.Done():
	case <-time.After(guard.Hang):
		t.Fatal("the viewer was not told the session ended")
	}
	if err := v.Err(); err != nil {
		t.Errorf("a session that ended cleanly: %v", err)
	}
	var ended bool
	for _, f := range v.Store().Window(0, v.Store().Len()) {
		if m, ok := proxy.ParseMark(f); ok && m.What == proxy.WhatEnded {
			ended = true
		}
	}
	if got := messages(v.Store()); len(got) != 1 || !ended {
		t.Errorf("after the end the store holds %q and ended=%v", got, ended)
	}
	if _, err := os.Stat(h.Socket()); !os.IsNotExist(err) {
		t.Errorf("the socket outlived the hub: %v", err)
	}
	if err := v.PauseOn(nil); err != ErrGone {
		t.Errorf("a command to an ended session: %v", err)
	}
}

// TestLiveViewerIsAnAttachSource checks at compile time that a Viewer is
// what the attach screen reads.
func TestLiveViewerIsAnAttachSource(t *testing.T) {
	type steering interface {
		PauseOn([]proxy.Filter) error
		PauseFilters() []proxy.Filter
		Held() []proxy.Held
		Decide(n uint64, d proxy.Decision) error
		Inject(ctx context.Context, body []byte) (string, error)
		SetFaults([]proxy.Fault) error
		Faults() []proxy.Fault
	}
	type attachSource interface {
		steering
		Store() *capture.Store
		Header() recordings.Header
		Done() <-chan struct{}
		Err() error
		Missed() int64
	}
	var _ attachSource = (*Viewer)(nil)
	var _ attachSource = (*proxy.Session)(nil)
}
