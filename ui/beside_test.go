package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// selectedSeq is the Seq of the traffic pane's selection, 0 for none.
func selectedSeq(m *Model) uint64 {
	if f, ok := m.traffic.selected(); ok {
		return f.Seq
	}
	return 0
}

// On a wide terminal a screen that drives the server keeps the traffic
// and detail panes beside it; the screen has the keys until ctrl+o hands
// them to the traffic pane, and esc there hands them back.
func TestScreenBesideTheWire(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 160, 45)
	press(m, ":")
	s := screenText(m)
	for _, want := range []string{"Compose", "Traffic ·", "Detail ·"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the screen beside the wire lacks %q:\n%s", want, s)
		}
	}
	if !strings.Contains(hintLine(m), "ctrl+o keys to traffic") {
		t.Errorf("hint line %q does not say how to reach the traffic", hintLine(m))
	}
	golden(t, "beside_composer", s)

	seq := selectedSeq(m)
	press(m, "k") // typed into the composer, not a move in the traffic
	if selectedSeq(m) != seq {
		t.Fatal("a key meant for the screen moved the traffic selection")
	}
	press(m, "ctrl+o")
	if !m.wireFront || !strings.Contains(hintLine(m), "ctrl+o back to") {
		t.Fatalf("ctrl+o did not hand the keys to the traffic; hint line %q", hintLine(m))
	}
	press(m, "k")
	if selectedSeq(m) == seq {
		t.Fatal("k with the traffic in front did not move the selection")
	}
	if !strings.Contains(screenText(m), "Compose") {
		t.Fatal("the screen left the body when the traffic took the keys")
	}
	press(m, "esc")
	if m.wireFront || m.overlay == nil {
		t.Fatalf("esc in the traffic did not hand the keys back to the screen (front %v, screen %v)", m.wireFront, m.overlay != nil)
	}
}

// On a narrow terminal the screen has the body alone; ctrl+o flips to the
// panes and back, and a key that opens another screen says this one is
// open.
func TestNarrowScreenFlipsToTheWire(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 100, 30)
	press(m, ":")
	if s := screenText(m); strings.Contains(s, "Traffic ·") || !strings.Contains(hintLine(m), "ctrl+o wire") {
		t.Fatalf("a narrow screen shares the body or hides the flip key:\n%s", s)
	}
	press(m, "ctrl+o")
	s := screenText(m)
	if !strings.Contains(s, "Traffic ·") {
		t.Fatalf("ctrl+o did not show the traffic:\n%s", s)
	}
	press(m, "e")
	if _, isComposer := m.overlay.(interface{ Title() string }); !isComposer || !strings.Contains(screenText(m), "is open: ctrl+o returns to it") {
		t.Fatalf("e with a screen open behind the wire did not say so:\n%s", screenText(m))
	}
	press(m, "ctrl+o")
	if s := screenText(m); strings.Contains(s, "Traffic ·") || !strings.Contains(s, "Compose") {
		t.Fatalf("ctrl+o did not flip back to the screen:\n%s", s)
	}
}

// The beside layout gives the screen three fifths of the width and
// stacks traffic over the focused pane in the rest, on every size from
// its threshold.
func TestBesideLayoutCoversTheBody(t *testing.T) {
	for _, w := range []int{besideMinWidth, 160, 221} {
		for _, focus := range []paneID{paneTraffic, paneHex} {
			l := computeLayout(w, 45, focus, allPanes(), screenBeside)
			below := focus
			if focus == paneTraffic {
				below = paneDetail
			}
			tr, bl := l.area[paneTraffic], l.area[below]
			if l.screen.w+1+tr.w != w || tr.w != bl.w || tr.h+bl.h != 45-chromeLines || bl.y != tr.y+tr.h {
				t.Errorf("w %d focus %d: screen %+v traffic %+v below %+v", w, focus, l.screen, tr, bl)
			}
		}
	}
	if d := drivingFor(true, false, besideMinWidth-1, 45); d != screenAlone {
		t.Errorf("below the threshold the screen is %v, want alone", d)
	}
	if d := drivingFor(true, true, 100, 45); d != wireInFront {
		t.Errorf("flipped on a narrow terminal: %v, want the wire in front", d)
	}
}

// A screen's "its frames" filters the traffic to one request and hands
// the traffic the keys, the screen staying open behind.
func TestShowFramesFiltersToTheRequest(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 160, 45)
	press(m, ":")
	if cmd := (driver{m}).ShowFrames(jsonrpc.IntID(2)); cmd != nil {
		screentest.RunInBackground(cmd)
	}
	if m.filterText() != "#2" || !m.wireFront || m.overlay == nil {
		t.Fatalf("filter %q, traffic in front %v, screen open %v", m.filterText(), m.wireFront, m.overlay != nil)
	}
	for _, want := range []string{"tools/call read_file", "stream 2/1 header"} {
		if !strings.Contains(screenText(m), want) {
			t.Errorf("the filtered traffic lacks %q:\n%s", want, screenText(m))
		}
	}
	if strings.Contains(screenText(m), "tools/call analyze") {
		t.Errorf("the filter kept another request's frames:\n%s", screenText(m))
	}
}

// On a wide screen the split layout keeps the traffic at the width its
// rows use and gives the rest to the detail and hex panes.
func TestWideSplitGivesTheRestToDetail(t *testing.T) {
	l := computeLayout(280, 60, paneTraffic, allPanes(), noScreen)
	if l.left != trafficMaxWidth || l.area[paneDetail].w != 280-trafficMaxWidth-1 {
		t.Errorf("at 280 columns: traffic %d, detail %d", l.left, l.area[paneDetail].w)
	}
	if l := computeLayout(160, 45, paneTraffic, allPanes(), noScreen); l.left != 160*11/20 {
		t.Errorf("at 160 columns the traffic has %d, want %d", l.left, 160*11/20)
	}
}
