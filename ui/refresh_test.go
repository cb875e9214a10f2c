package ui

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
)

// A burst of frames appended while no refresh is pending yields one
// refresh, whose pass reads every frame of the burst.
func TestRefreshCoalescesABurst(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	m := newTestModel(t, st, 140, 40)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 250 {
				st.Append(controlFrame(t, capture.In, t0, proto.EncJSON, request(t, int64(g*1000+i), "ping", nil)))
			}
		}()
	}
	wg.Wait()
	msg := m.waitRefresh()()
	if _, ok := msg.(refreshMsg); !ok {
		t.Fatalf("got %T", msg)
	}
	refreshWhole(m, msg.(refreshMsg).at)
	if m.idx.next != 1001 || len(m.idx.calls) != 1000 {
		t.Errorf("after one refresh's pass the index read up to %d with %d calls, want all 1000 frames", m.idx.next-1, len(m.idx.calls))
	}
	select {
	case <-m.signal:
		t.Error("a second signal was pending after the burst")
	default:
	}
}

// A refresh comes no sooner than refreshInterval after the previous one,
// however soon the store changes.
func TestRefreshIsSpaced(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	m := newTestModel(t, st, 140, 40)
	for range 3 {
		m.lastRefresh = time.Now()
		st.Append(controlFrame(t, capture.In, t0, proto.EncJSON, notification(t, "notifications/message", nil)))
		msg := m.waitRefresh()().(refreshMsg)
		if gap := msg.at.Sub(m.lastRefresh); gap < refreshInterval {
			t.Errorf("a refresh came %s after the previous one, under %s", gap, refreshInterval)
		}
		m.Update(msg)
	}
}

// The refresh loop ends with Close instead of waiting for a signal forever.
func TestRefreshEndsWithClose(t *testing.T) {
	m := New(Config{})
	cmd := m.waitRefresh()
	done := make(chan any)
	go func() { done <- cmd() }()
	_ = m.Close()
	if msg := <-done; msg != nil {
		t.Errorf("after Close the loop returned %T", msg)
	}
}

// The index reads at most maxScan frames per refresh and counts the rest
// as not indexed, so a refresh costs the same however far it fell behind.
func TestIndexBoundsItsWork(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	fr := controlFrame(t, capture.In, t0, proto.EncJSON, notification(t, "notifications/message", nil))
	for range maxScan + 100 {
		c := *fr
		st.Append(&c)
	}
	x := newIndex()
	x.catchUp(st)
	if x.skipped != 100 || x.next != uint64(maxScan+101) {
		t.Errorf("skipped %d, next %d", x.skipped, x.next)
	}
}

// Decode errors and error responses are painted in the error colour; the
// cancelled analyze, its $/cancel and the error that answers it in the
// warning colour.
func TestErrorRowsInErrorColour(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	m.traffic.sel = 0
	cols := trafficColumns(100)
	opening := func(tint look.Tint) string {
		lead, _, _ := strings.Cut(tint.Paint("\x1f"), "\x1f")
		return lead
	}
	errLead, warnLead := opening(m.styles.Ink.Error), opening(m.styles.Ink.Warn)
	cancelRows := map[uint64]bool{9: true, 15: true, 16: true}
	for _, f := range m.cfg.Store.Window(1, m.cfg.Store.Len()) {
		row := m.traffic.row(f, cols, true)
		_, tone := frameLabel(f, m.idx, mcp.DialectMCPFlow)
		want := tonePlain
		switch {
		case cancelRows[f.Seq]:
			want = toneCancel
		case f.Err != nil || f.Msg != nil && f.Msg.Error != nil:
			want = toneBad
		}
		if tone != want {
			t.Errorf("seq %d: tone %v, want %v", f.Seq, tone, want)
		}
		if painted := strings.HasPrefix(row, errLead); painted != (want == toneBad) {
			t.Errorf("seq %d: painted in the error colour %v", f.Seq, painted)
		}
		if painted := strings.HasPrefix(row, warnLead); painted != (want == toneCancel) {
			t.Errorf("seq %d: painted in the warning colour %v", f.Seq, painted)
		}
	}
}

// With follow off, the selection stays on its frame while a flood makes
// the store drop older frames between refreshes, also once the store has
// dropped the selected frame itself: k then does not jump to the oldest
// frame held, j goes to it.
func TestSelectionStaysOnItsFrameWhileTheStoreDropsFrames(t *testing.T) {
	const ring = 1000
	st := capture.NewStore(capture.Config{MaxFrames: ring})
	c := &clock{}
	appendN := func(n int) {
		for range n {
			st.Append(controlFrame(t, capture.In, c.next(), proto.EncJSON, notification(t, "notifications/message", nil)))
		}
	}
	appendN(ring)
	m := newTestModel(t, st, 200, 60)
	press(m, "k") // stops following: frame 999
	selectedIs := func(what string, want uint64) {
		t.Helper()
		f, ok := m.traffic.selected()
		if !ok || f.Seq != want || m.detail.frame == nil || m.detail.frame.Seq != want {
			t.Fatalf("%s: selection %d (found %v), detail %v; want frame %d", what, m.traffic.sel, ok, m.detail.frame != nil, want)
		}
	}
	selectedIs("after k", ring-1)

	appendN(ring / 2) // frames 1…500 leave the store
	m.Update(refreshMsg{at: time.Now()})
	selectedIs("after 500 older frames left the store", ring-1)
	press(m, "k")
	selectedIs("k after the store dropped older frames", ring-2)

	appendN(3 * ring) // the selected frame leaves the store too
	m.Update(refreshMsg{at: time.Now()})
	selectedIs("after the selected frame left the store", ring-2)
	press(m, "k")
	selectedIs("k with nothing older held", ring-2)
	if title := m.traffic.Title(); !strings.Contains(title, "frame 998 selected, no longer held") {
		t.Errorf("title %q does not say the selected frame left the store", title)
	}
	m.Update(refreshMsg{at: time.Now()})
	press(m, "j")
	selectedIs("j from a dropped frame", st.Stats().FirstSeq)
	press(m, "k")
	selectedIs("k back to the oldest frame held", st.Stats().FirstSeq)
}
