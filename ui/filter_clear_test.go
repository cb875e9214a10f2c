package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// filterBy sets a filter through the filter input.
func filterBy(m *Model, text string) {
	press(m, "/")
	for _, r := range text {
		press(m, string(r))
	}
	press(m, "enter")
}

// trafficRows are the rows the traffic pane shows under its titles.
func trafficRows(m *Model) []string {
	p := m.traffic
	return strings.Split(p.Render(100, p.rows+1, true), "\n")[1:]
}

// Clearing a filter keeps the selected frame and scrolls the list so
// that it is full.
func TestClearingFilterKeepsSelectionAndFillsList(t *testing.T) {
	m := newTestModel(t, filterClearStore(t), 140, 40)
	filterBy(m, "tools/list")
	press(m, "home")
	press(m, "esc")
	if f := selectedFrame(t, m); f.Seq != 47 || m.traffic.follow {
		t.Fatalf("after clearing: seq %d follow %v, want 47 kept", f.Seq, m.traffic.follow)
	}
	rows := trafficRows(m)
	if len(rows) < 12 {
		t.Fatalf("the traffic pane shows %d rows, too few for the test", len(rows))
	}
	for i, r := range rows {
		if strings.TrimSpace(r) == "" {
			t.Fatalf("row %d of %d is blank after clearing the filter", i, len(rows))
		}
	}
	if !strings.Contains(rows[len(rows)-1], "notifications/progress") || m.traffic.top != uint64(58-len(rows)+1) {
		t.Errorf("the list starts at frame %d, want the newest frame on the last row", m.traffic.top)
	}
	golden(t, "traffic_unfiltered", m.traffic.Render(100, m.traffic.rows+1, true))
}

// Clearing a filter while following goes on following the newest frame,
// with the list full.
func TestClearingFilterWhileFollowingFillsList(t *testing.T) {
	m := newTestModel(t, filterClearStore(t), 140, 40)
	filterBy(m, "tools/list")
	if f := selectedFrame(t, m); f.Seq != 50 || !m.traffic.follow {
		t.Fatalf("filtered: seq %d follow %v, want the last match followed", f.Seq, m.traffic.follow)
	}
	press(m, "esc")
	if f := selectedFrame(t, m); f.Seq != 58 || !m.traffic.follow {
		t.Fatalf("after clearing: seq %d follow %v, want the newest followed", f.Seq, m.traffic.follow)
	}
	for i, r := range trafficRows(m) {
		if strings.TrimSpace(r) == "" {
			t.Fatalf("row %d is blank after clearing the filter", i)
		}
	}
}

// filterClearStore holds 58 frames: notifications, but for two tools/list
// requests at Seqs 47 and 50.
func filterClearStore(t *testing.T) *capture.Store {
	t.Helper()
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	for seq := int64(1); seq <= 58; seq++ {
		msg := notification(t, "notifications/progress", map[string]any{"progress": seq})
		if seq == 47 || seq == 50 {
			msg = request(t, seq, "tools/list", nil)
		}
		st.Append(controlFrame(t, capture.Out, c.next(), proto.EncJSON, msg))
	}
	return st
}
