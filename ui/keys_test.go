package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// selectedFrame returns the traffic pane's selection.
func selectedFrame(t *testing.T, m *Model) *capture.Frame {
	t.Helper()
	f, ok := m.traffic.selected()
	if !ok {
		t.Fatal("no frame is selected")
	}
	return f
}

func TestKeysFocus(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	want := []paneID{paneStreams, paneDatagrams, paneDetail, paneHex, paneStderr, paneTraffic}
	for _, p := range want {
		press(m, "tab")
		if m.focus != p {
			t.Fatalf("tab: focus %s, want %s", paneNames[m.focus], paneNames[p])
		}
	}
	press(m, "shift+tab")
	if m.focus != paneStderr || m.layout.split {
		t.Errorf("shift+tab from traffic: focus %s split %v, want the stderr tab alone", paneNames[m.focus], m.layout.split)
	}
	press(m, "shift+tab")
	if m.focus != paneHex || !m.layout.split {
		t.Errorf("shift+tab: focus %s split %v, want hex in the split", paneNames[m.focus], m.layout.split)
	}
}

func TestKeysTrafficNavigation(t *testing.T) {
	st := sampleStore(t)
	m := newTestModel(t, st, 140, 40)
	last := st.Stats().LastSeq
	if f := selectedFrame(t, m); f.Seq != last || !m.traffic.follow {
		t.Fatalf("start: seq %d follow %v, want the newest (%d) followed", f.Seq, m.traffic.follow, last)
	}
	steps := []struct {
		key    string
		seq    uint64
		follow bool
	}{
		{"up", last - 1, false}, {"k", last - 2, false}, {"down", last - 1, false}, {"j", last, false},
		{"home", 1, false}, {"end", last, false}, {"g", 1, false}, {"pgdown", min(1+uint64(m.traffic.rows), last), false},
		{"pgup", 1, false}, {"G", last, false},
	}
	for _, s := range steps {
		press(m, s.key)
		if f := selectedFrame(t, m); f.Seq != s.seq || m.traffic.follow != s.follow {
			t.Fatalf("%s: seq %d follow %v, want %d %v", s.key, f.Seq, m.traffic.follow, s.seq, s.follow)
		}
		if m.detail.frame == nil || m.detail.frame.Seq != s.seq || m.hex.frame.Seq != s.seq {
			t.Fatalf("%s: detail and hex do not show the selection", s.key)
		}
	}
	press(m, "f")
	if !m.traffic.follow {
		t.Fatal("f did not turn following on")
	}
	st.Append(controlFrame(t, capture.In, t0, proto.EncJSON, notification(t, "notifications/message", nil)))
	m.Update(refreshMsg{at: t0})
	if f := selectedFrame(t, m); f.Seq != last+1 {
		t.Errorf("following: seq %d, want the new frame %d", f.Seq, last+1)
	}
	press(m, "f")
	if m.traffic.follow {
		t.Error("f did not turn following off")
	}
}

func TestKeysDetailAndHex(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 24) // a detail shorter than the initialize request
	press(m, "home")
	press(m, "enter")
	if all := strings.Join(m.detail.content.rows(0, m.detail.content.rowCount()), "\n"); m.focus != paneDetail || !strings.Contains(all, "initialize") {
		t.Fatalf("enter: focus %s, detail %q", paneNames[m.focus], all)
	}
	press(m, "j") // scrolls the detail, not the traffic
	if m.detail.offset != 1 || selectedFrame(t, m).Seq != 1 {
		t.Errorf("j in the detail: offset %d, selection %d", m.detail.offset, selectedFrame(t, m).Seq)
	}
	press(m, "x")
	if m.focus != paneHex {
		t.Fatalf("x: focus %s", paneNames[m.focus])
	}
	press(m, "esc")
	if m.focus != paneTraffic {
		t.Errorf("esc: focus %s, want traffic", paneNames[m.focus])
	}
}

func TestKeysStreamEnterSelectsItsFrame(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	m.setFocus(paneStreams)
	press(m, "enter")
	s, _ := m.streams.selected()
	if f := selectedFrame(t, m); f.Seq != s.FirstSeq || f.Chan.Kind != capture.Stream || m.focus != paneDetail {
		t.Errorf("enter on a stream: selection %d (%s), focus %s; want the stream's first frame %d", f.Seq, f.Chan, paneNames[m.focus], s.FirstSeq)
	}
}

func TestKeysLinkedFrames(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	selectWhere(t, m, isMethod("tools/call"))
	var visited []string
	start := selectedFrame(t, m).Seq
	for range 5 {
		press(m, "l")
		f := selectedFrame(t, m)
		label, _ := frameLabel(f, m.idx, mcp.DialectMCPFlow)
		visited = append(visited, label)
		if f.Seq == start {
			break
		}
	}
	want := []string{"stream 2/1 header", "stream 2/1 chunk", "result", "stream 2/1 chunk", "tools/call read_file"}
	if len(visited) != len(want) {
		t.Fatalf("l visited %q", visited)
	}
	for i := range want {
		if !strings.HasPrefix(visited[i], want[i]) {
			t.Errorf("l step %d: %q, want %q…", i, visited[i], want[i])
		}
	}
}

func TestKeysFilter(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	press(m, "/")
	if !m.filtering {
		t.Fatal("/ did not open the filter input")
	}
	for _, r := range "analyze" {
		press(m, string(r))
	}
	press(m, "q") // typed into the filter, not quitting
	m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	press(m, "enter")
	if m.filtering || m.idx.filter == nil || m.idx.filter.fl.text != "analyze" {
		t.Fatalf("enter: filtering %v filter %+v", m.filtering, m.idx.filter)
	}
	src := m.traffic.source()
	for i := range src.count() {
		f, _ := m.cfg.Store.Get(src.seqAt(i))
		if c, ok := m.idx.lookup(f); !ok || c.method != "tools/call analyze" {
			t.Errorf("row %d (%s) is not of the analyze call", i, f.Chan)
		}
	}
	if src.count() != 8 { // request, 5 datagrams, $/cancel, error
		t.Errorf("analyze matches %d frames, want 8", src.count())
	}
	press(m, "/")
	press(m, "esc")
	if m.filtering || m.idx.filter == nil {
		t.Fatal("esc in the input must close it and keep the filter")
	}
	press(m, "esc")
	if m.idx.filter != nil || m.traffic.source().count() != m.cfg.Store.Len() {
		t.Error("esc did not clear the filter")
	}
}

func TestFilterWords(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	checkFilterCounts(t, m, []filterCount{
		{">", 5}, {"<", 14}, {"#2", 5}, {"error", 2}, {"stream", 3}, {"datagram", 5},
		{"stderr", 2}, {"control", 9}, {"initialize", 3}, {"< #3 datagram", 5}, {"stderr listening", 1},
	})
}

// filterCount is a filter and how many frames it lets through.
type filterCount struct {
	text string
	want int
}

// checkFilterCounts applies each filter to m and checks its count.
func checkFilterCounts(t *testing.T, m *Model, cases []filterCount) {
	t.Helper()
	for _, c := range cases {
		m.Update(filterStepMsg{}) // a stale step does nothing
		m.applyFilter(c.text)
		if n := m.traffic.source().count(); n != c.want {
			t.Errorf("filter %q: %d frames, want %d", c.text, n, c.want)
		}
	}
}

// TestFilterBackfillSteps checks a filter on a large capture reads the
// older frames in steps, keeps the newer matches, and ends complete.
func TestFilterBackfillSteps(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	for i := range 3 * filterBudget {
		method := "ping"
		if i%1000 == 0 {
			method = "tools/list"
		}
		st.Append(&capture.Frame{Time: t0, Chan: capture.Channel{Kind: capture.Control}, Msg: &jsonrpc.Message{Method: method}})
	}
	m := newTestModel(t, st, 140, 40)
	cmd := m.applyFilter("tools/list")
	steps := 1
	st.Append(&capture.Frame{Time: t0, Chan: capture.Channel{Kind: capture.Control}, Msg: &jsonrpc.Message{Method: "tools/list"}})
	m.Update(refreshMsg{at: t0})
	for cmd != nil {
		_, cmd = m.Update(cmd())
		steps++
	}
	if steps < 3 || !m.idx.filter.done() {
		t.Errorf("backfill took %d steps (done %v), want several", steps, m.idx.filter.done())
	}
	if n := m.traffic.source().count(); n != 3*filterBudget/1000+1 {
		t.Errorf("%d matches, want %d", n, 3*filterBudget/1000+1)
	}
}

func TestKeysHelp(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 100, 30)
	press(m, "?")
	if !m.showHelp || !strings.Contains(m.View().Content, "reconnect") {
		t.Fatal("? did not show the help")
	}
	press(m, "?")
	if m.showHelp {
		t.Fatal("? did not close the help")
	}
	press(m, "?")
	press(m, "esc")
	if m.showHelp {
		t.Error("esc did not close the help")
	}
}
