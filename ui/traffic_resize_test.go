package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// numberedStore holds n requests named m001, m002, … in order.
func numberedStore(t *testing.T, n int) *capture.Store {
	t.Helper()
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	for i := 1; i <= n; i++ {
		st.Append(controlFrame(t, capture.Out, c.next(), proto.EncJSON, request(t, int64(i), fmt.Sprintf("m%03d", i), nil)))
	}
	return st
}

// Resizing in follow mode keeps the newest frame selected and on screen;
// growing the window fills the new rows with older frames rather than
// leaving blank rows under the last one.
func TestTrafficResizeKeepsTheNewestFrame(t *testing.T) {
	m := newTestModel(t, numberedStore(t, 60), 100, 40)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 12})
	if s := screenText(m); !strings.Contains(s, "m060") {
		t.Fatalf("shrunk in follow mode, the newest frame is off screen:\n%s", s)
	}
	if f, ok := m.traffic.selected(); !ok || f.Msg.Method != "m060" {
		t.Fatalf("the selection left the newest frame: %+v", f)
	}
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	a := m.layout.area[paneTraffic]
	rows := ansi.Strip(m.traffic.Render(a.w, a.h-1, true))
	lines := strings.Split(strings.TrimRight(rows, "\n "), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, "m060") {
		t.Fatalf("grown, the last row is not the newest frame:\n%s", rows)
	}
	if !strings.Contains(rows, "m040") {
		t.Errorf("grown, the new rows were not filled with older frames:\n%s", rows)
	}
}
