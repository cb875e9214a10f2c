package ui

import (
	"fmt"
	"github.com/mcpscope/mcpscope/client/load"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/ui/bench"
)

// sentFrame is the seq of the first request with method the client sent.
func sentFrame(t *testing.T, st *capture.Store, method string) uint64 {
	t.Helper()
	for _, f := range st.Window(1, st.Len()) {
		if f.Dir == capture.Out && f.Msg != nil && f.Msg.Kind() == jsonrpc.KindRequest && f.Msg.Method == method {
			return f.Seq
		}
	}
	t.Fatalf("no %s request was captured", method)
	return 0
}

// b on a request the client sent benches it on the live session: the
// demo answers every call of the run, and the run's requests are the
// recorded one's method and params. b on an answer says what to pick.
func TestBenchSelectedRequest(t *testing.T) {
	m, r, st := benchOnDemo(t, screentest.LoadInTurn(4))
	seq := sentFrame(t, st, mcp.MethodToolsList)
	for _, f := range st.Window(seq+1, st.Len()) {
		if f.Dir == capture.In && f.Msg != nil && f.Msg.Kind() == jsonrpc.KindResult {
			m.traffic.selectSeq(f.Seq)
			break
		}
	}
	press(m, "b")
	if m.overlay != nil || m.status.err != bench.ErrNotARequest.Error() {
		t.Errorf("b on an answer: overlay %v, status %q", m.overlay, m.status.err)
	}
	if n := benchToolsList(t, m, r, st); n != 4 {
		t.Errorf("the run completed %d calls, want the double's 4", n)
	}
}

// benchOnDemo is a model connected to the in-process demo whose benches
// run on run, once its tools/list is answered.
func benchOnDemo(t *testing.T, run bench.Runner) (*Model, *cmdRunner, *capture.Store) {
	t.Helper()
	st := capture.NewStore(capture.Config{})
	m := newTestModel(t, st, 120, 40)
	m.conn = connection{link: Link{Session: screentest.ConnectDemo(t, st)}, gen: 1, dialect: mcp.DialectMCP, ready: true}
	m.benchRun = run
	r := newRunner(t, m)
	r.Press("t")
	r.Until("tools/list answered", func() bool { return len(screentest.SentRequests(st, mcp.MethodToolsList)) == 1 && st.Len() >= 2 })
	r.Send(refreshMsg{at: t0})
	return m, r, st
}

// benchToolsList benches the recorded tools/list at concurrency 1 for a
// second (b, then enter), closes the bench, and returns how many calls
// the run completed: each is a tools/list the demo answered.
func benchToolsList(t *testing.T, m *Model, r *cmdRunner, st *capture.Store) int {
	t.Helper()
	m.traffic.selectSeq(sentFrame(t, st, mcp.MethodToolsList))
	press(m, "b")
	if _, ok := m.overlay.(*bench.Bench); !ok || !strings.Contains(plainView(m), "Bench · tools/list") {
		t.Fatalf("b on the tools/list request opened %T:\n%s", m.overlay, plainView(m))
	}
	r.Press("?")
	for _, want := range []string{"run", "concurrency ×2 ÷2", "duration", "stop the run", "stop and close"} {
		if !strings.Contains(plainView(m), want) {
			t.Errorf("the bench's help lacks %q:\n%s", want, plainView(m))
		}
	}
	r.Press("?", "-", "-", "-", "<", "<", "<")
	if s := plainView(m); !strings.Contains(s, "concurrency 1 · duration 1.0s") {
		t.Fatalf("the settings keys:\n%s", s)
	}
	r.Press("enter")
	r.Until("the run's end", func() bool { return strings.Contains(plainView(m), "done in ") })
	s := plainView(m)
	var started, completed int
	if _, err := fmt.Sscanf(s[strings.Index(s, "started "):], "started %d · completed %d", &started, &completed); err != nil || started != completed || completed == 0 {
		t.Errorf("after the run (%v):\n%s", err, s)
	}
	if !strings.Contains(s, "errors     none") {
		t.Errorf("the run had errors:\n%s", s)
	}
	if n := len(screentest.SentRequests(st, mcp.MethodToolsList)); n != completed+1 {
		t.Errorf("%d tools/list sent, want the recorded one and the %d of the run", n, completed)
	}
	r.Press("esc")
	if m.overlay != nil {
		t.Errorf("esc left the bench open: %T", m.overlay)
	}
	return completed
}

// A replay has no connection to load: b says so.
func TestBenchNeedsALiveConnection(t *testing.T) {
	_, path := recordSample(t, "wt")
	rp := newTestReplay(t, path, recordings.SpeedAtOnce, 140, 40)
	settle(t, rp, done)
	rp.Update(keyPress("b"))
	if s := lastLine(screenText(rp.inner)); !strings.Contains(s, "bench needs a live connection: a replay has none") || rp.inner.overlay != nil {
		t.Errorf("b on a replay: %s", s)
	}

	m := newTestModel(t, sampleStore(t), 120, 30)
	press(m, "b")
	if !strings.Contains(m.status.err, "bench needs a live connection") {
		t.Errorf("b not connected: %q", m.status.err)
	}
}

// b is one key of the panes only, and no key of a replay's or an
// attach's own.
func TestBenchKeyIsItsOwn(t *testing.T) {
	k := DefaultKeyMap()
	var seen []string
	for _, col := range k.fullHelp(allPanes()) {
		for _, b := range col {
			seen = append(seen, b.Keys()...)
		}
	}
	for _, b := range append(DefaultReplayKeys().group(), DefaultAttachKeys().group()...) {
		seen = append(seen, b.Keys()...)
	}
	n := 0
	for _, key := range seen {
		if key == "b" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("b is bound %d times", n)
	}
}

// The same bench through the real engine: each call it counts is a
// tools/list the demo answered.
func TestBenchSelectedRequestLoadRun(t *testing.T) {
	m, r, st := benchOnDemo(t, load.Run)
	benchToolsList(t, m, r, st)
}
