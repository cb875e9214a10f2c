package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// A count of one is worded in the singular: the pane titles say
// "1 frame", "1 match", "1 line", and the store's facts "1 frame evicted".
func TestCountsOfOneAreSingular(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	st.Append(controlFrame(t, capture.Out, c.next(), proto.EncJSON, request(t, 1, "tools/list", nil)))
	m := newTestModel(t, st, 120, 30)
	if got := m.traffic.Title(); !strings.Contains(got, "· 1 frame") || strings.Contains(got, "frames") {
		t.Errorf("traffic title = %q, want \"1 frame\"", got)
	}
	st.Append(controlFrame(t, capture.Out, c.next(), proto.EncJSON, request(t, 2, "ping", nil)))
	st.Append(stderrFrame(c.next(), "server starting"))
	m.Update(refreshMsg{at: t0})
	filterBy(m, "tools/list")
	if got := m.traffic.Title(); !strings.Contains(got, "· 1 match") || strings.Contains(got, "matches") {
		t.Errorf("filtered traffic title = %q, want \"1 match\"", got)
	}
	if got := m.stderr.Title(); got != "Stderr · 1 line" {
		t.Errorf("stderr title = %q, want \"Stderr · 1 line\"", got)
	}
	facts := strings.Join(storeFacts(capture.Stats{Evicted: 1, Truncated: 1}, 1), " · ")
	if want := "1 frame evicted · 1 frame capped · 1 frame not indexed"; facts != want {
		t.Errorf("store facts = %q, want %q", facts, want)
	}
}
