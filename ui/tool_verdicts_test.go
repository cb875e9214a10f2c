package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// readKept reads st whole into a new model of it, as refreshWhole does,
// and returns the model and the commands its Updates returned.
func readKept(t *testing.T, st *capture.Store) (*Model, tea.Cmd) {
	t.Helper()
	m := keptModel(t, st)
	return m, readWhole(m)
}

// keptModel is a new model of st that has read nothing.
func keptModel(t *testing.T, st *capture.Store) *Model {
	m := New(Config{Store: st, Target: "wt://127.0.0.1:4433/mcp"})
	t.Cleanup(func() { _ = m.Close() })
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 30})
	return m
}

// readWhole reads the frames m's store holds, as refreshWhole does, and
// returns the commands its Updates returned.
func readWhole(m *Model) tea.Cmd {
	_, cmd := m.Update(refreshMsg{at: t0})
	cmds := []tea.Cmd{cmd}
	for m.passing {
		_, cmd := m.Update(passMsg{pass: m.pass})
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

// verdictOf runs cmd until it brings the verdict of the frame seq.
func verdictOf(t *testing.T, cmd tea.Cmd, seq uint64) toolVerdictMsg {
	t.Helper()
	msg := screentest.RunUntil(t, "the verdict of the large result", cmd, func(msg tea.Msg) bool {
		v, ok := msg.(toolVerdictMsg)
		return ok && v.seq == seq
	})
	return msg.(toolVerdictMsg)
}

// detailText is the detail pane of the selected frame, ANSI stripped.
func detailText(m *Model) string {
	m.detail.SetSize(120, 12)
	m.detail.prepare()
	return ansi.Strip(m.detail.Render(120, 12, true))
}

// rowOf is the traffic label of frame seq and whether it reads as failed.
func rowOf(t *testing.T, m *Model, seq uint64) (string, bool) {
	t.Helper()
	f, ok := m.cfg.Store.Get(seq)
	if !ok {
		t.Fatalf("frame %d is not held", seq)
	}
	label, tone := frameLabel(f, m.idx, mcp.DialectMCP)
	return label, tone == toneBad
}

// A tools/call result past inlineVerdictBytes is judged in a command,
// not in the Update that reads it: the call shows as checking, the key
// sent next is answered by the next Update with the result still not
// judged, and once the verdict arrives the row, the detail, the findings
// count and the "error" filter set before it all read the call as failed.
// A small result of the same tool is judged as it is read.
func TestLargeToolResultVerdictArrivesAsMessage(t *testing.T) {
	st := rowsStore(t, true, inlineVerdictBytes*4, 1<<10)
	m, cmd := readKept(t, st)
	if label, bad := rowOf(t, m, 4); !strings.HasPrefix(label, "result "+markChecking+" · tools/call rows") || bad {
		t.Fatalf("the large result reads %q (failed %v) before its verdict, want it checking", label, bad)
	}
	if label, bad := rowOf(t, m, 6); !strings.HasPrefix(label, "result · tools/call rows") || bad {
		t.Errorf("the small result reads %q (failed %v), want it judged a success as it is read", label, bad)
	}
	m.traffic.selectSeq(6)
	m.syncSelection()
	press(m, "up")
	if f, ok := m.traffic.selected(); !ok || f.Seq != 5 {
		t.Fatalf("up did not move the selection to frame 5 in the next Update: %v", f)
	}
	if label, _ := rowOf(t, m, 4); !strings.Contains(label, markChecking) {
		t.Fatalf("the key's Update judged the large result: %q", label)
	}
	if text, _ := m.idx.findingsPart(); text != "" {
		t.Errorf("findings before the verdict: %q", text)
	}
	m.traffic.selectSeq(4)
	m.syncSelection()
	m.detail.prepare()
	if d := detailText(m); !strings.Contains(d, checkingText) {
		t.Errorf("the detail of the result under judgement does not say so:\n%s", d)
	}
	filterBy(m, "error")
	if n := m.idx.filter.count(); n != 0 {
		t.Errorf("the error filter matches %d frames before the verdict", n)
	}
	m.Update(verdictOf(t, cmd, 4))
	if label, bad := rowOf(t, m, 4); !strings.HasPrefix(label, "result ✗ outputSchema") || !bad {
		t.Errorf("after its verdict the large result reads %q (failed %v)", label, bad)
	}
	if text, _ := m.idx.findingsPart(); text != "1 error" {
		t.Errorf("findings after the verdict: %q, want 1 error", text)
	}
	if v := m.idx.filter; v.count() != 1 || v.seqAt(0) != 4 {
		t.Errorf("the error filter matches %d frames after the verdict, want frame 4", v.count())
	}
	m.traffic.selectSeq(4)
	m.syncSelection()
	if d := detailText(m); !strings.Contains(d, `tool "rows" returned structuredContent that fails its outputSchema`) || strings.Contains(d, checkingText) {
		t.Errorf("the detail after the verdict:\n%s", d)
	}
}

// A verdict that comes too late changes nothing: one of a call answered
// again since, and one asked for by an index since replaced.
func TestStaleToolVerdictIsIgnored(t *testing.T) {
	st := rowsStore(t, true, inlineVerdictBytes*2)
	m, cmd := readKept(t, st)
	v := verdictOf(t, cmd, 4)
	c := m.idx.calls[v.call]
	c.checking = 99 // the call was answered again since, by frame 99
	m.Update(v)
	if c.failure != nil || c.checking != 99 {
		t.Errorf("the verdict of an earlier answer marked the call: %v, checking %d", c.failure, c.checking)
	}
	if text, _ := m.idx.findingsPart(); text != "1 error" {
		t.Errorf("the findings of the frame read: %q, want them counted still", text)
	}
	m2, _ := readKept(t, st)
	m2.Update(v) // a verdict of m's index
	if label, bad := rowOf(t, m2, 4); !strings.Contains(label, markChecking) || bad {
		t.Errorf("another index's verdict marked the call: %q", label)
	}
	if text, _ := m2.idx.findingsPart(); text != "" || m2.idx.verdicts.running != 1 {
		t.Errorf("another index's verdict counted: findings %q, running %d", text, m2.idx.verdicts.running)
	}
}

// A flood of large results runs at most maxVerdictsInFlight judgements
// at once, the others waiting in turn, each verdict arriving in the end;
// the bytes they hold stay within maxVerdictBytes.
func TestLargeToolVerdictsQueueBounded(t *testing.T) {
	sizes := make([]int, 6)
	for i := range sizes {
		sizes[i] = inlineVerdictBytes + 1024
	}
	st := rowsStore(t, false, sizes...)
	m, cmd := readKept(t, st)
	q := &m.idx.verdicts
	if q.running != maxVerdictsInFlight || len(q.jobs) != len(sizes)-maxVerdictsInFlight || q.bytes > maxVerdictBytes {
		t.Fatalf("running %d, waiting %d, holding %d bytes", q.running, len(q.jobs), q.bytes)
	}
	for seq := uint64(4); seq < uint64(4+2*len(sizes)); seq += 2 {
		v := verdictOf(t, cmd, seq)
		_, next := m.Update(v)
		if q.running > maxVerdictsInFlight {
			t.Fatalf("%d judgements run at once", q.running)
		}
		cmd = tea.Batch(cmd, next)
	}
	for seq := uint64(4); seq < uint64(4+2*len(sizes)); seq += 2 {
		if label, bad := rowOf(t, m, seq); !strings.HasPrefix(label, "result · tools/call rows") || bad {
			t.Errorf("frame %d reads %q after its verdict", seq, label)
		}
	}
	if q.running != 0 || len(q.jobs) != 0 || q.bytes != 0 {
		t.Errorf("after every verdict: running %d, waiting %d, holding %d bytes", q.running, len(q.jobs), q.bytes)
	}
}

// The traffic rows of a large result under judgement, then after its
// verdict.
func TestGoldenToolVerdictChecking(t *testing.T) {
	st := rowsStore(t, true, inlineVerdictBytes*2)
	m, cmd := readKept(t, st)
	before := strings.Join(trafficRows(m), "\n")
	m.Update(verdictOf(t, cmd, 4))
	golden(t, "tool_verdict_checking", before+"\n--- the verdict arrives ---\n"+strings.Join(trafficRows(m), "\n"))
}

// Selecting a large tools/call result asks its structured report (the
// text compared, the outputSchema checked) of a command, not of the
// key's Update: the detail says it is checking, and shows the report once
// it arrives.
func TestLargeResultStructuredReportArrivesAsMessage(t *testing.T) {
	st := rowsStore(t, true, inlineVerdictBytes*2, 1<<10) // the pass leaves the small result shown
	m, cmd := readKept(t, st)
	m.traffic.selectSeq(3)
	m.syncSelection()
	_, arrived := m.Update(verdictOf(t, cmd, 4)) // the call's verdict and findings
	_, key := m.Update(keyPress("down"))
	cmd = tea.Batch(arrived, key)
	if f, ok := m.traffic.selected(); !ok || f.Seq != 4 {
		t.Fatalf("down did not select the large result: %v", f)
	}
	if d := detailText(m); !strings.Contains(d, checkingReportText) || strings.Contains(d, "fails outputSchema") {
		t.Fatalf("the detail as the key left it:\n%s", d)
	}
	m.Update(verdictOf(t, cmd, 4))
	if d := detailText(m); strings.Contains(d, checkingReportText) || !strings.Contains(d, "fails outputSchema") {
		t.Errorf("the detail once the report arrived:\n%s", d)
	}
}

// A verdict lays out again the detail of the frame it judged, not the
// detail of another frame shown meanwhile (a large result's layout costs
// about 0.1 s): the content laid out before stays.
func TestToolVerdictRedrawsOnlyItsFrame(t *testing.T) {
	st := rowsStore(t, true, inlineVerdictBytes*2, inlineVerdictBytes*2)
	m, cmd := readKept(t, st)
	m.traffic.selectSeq(6)
	m.syncSelection()
	const before = "laid out before the verdicts"
	m.detail.content = fixedRows{before}
	m.Update(verdictOf(t, cmd, 4))
	if rows := m.detail.content.rows(0, 1); len(rows) != 1 || rows[0] != before {
		t.Errorf("the verdict of frame 4 laid out the detail of frame 6 again: %q", rows)
	}
	m.Update(verdictOf(t, cmd, 6))
	if d := detailText(m); strings.Contains(d, before) || strings.Contains(d, checkingText) {
		t.Errorf("the detail of frame 6 once its verdict arrived:\n%s", d)
	}
}

// The detail of the frame selected while the index had yet to read it
// is laid out again once the index has: it says its result is checking
// without waiting for a verdict about another frame.
func TestDetailLaidOutOnceItsFrameIsRead(t *testing.T) {
	st := rowsStore(t, true, inlineVerdictBytes*2, inlineVerdictBytes*2)
	m, _ := readKept(t, st)
	if f, ok := m.traffic.selected(); !ok || f.Seq != 6 {
		t.Fatalf("the selection after the pass: %v", f)
	}
	rows := m.detail.content.rows(0, m.detail.content.rowCount())
	if d := ansi.Strip(strings.Join(rows, "\n")); !strings.Contains(d, checkingText) {
		t.Errorf("the detail of the last result after the pass:\n%s", d)
	}
}

// Each job waiting for judgement is charged a cost besides its result's
// bytes: a flood of tiny results of a tool whose outputSchema is large
// stops waiting at maxVerdictBytes, its results past it judged where they
// are read, as a flood of large results does.
func TestTinyResultsChargeTheirJob(t *testing.T) {
	st := rowsStoreOf(t, hugeRowsSchema(), false, 100, 100, 100, 100)
	m := keptModel(t, st)
	f, _ := st.Get(4)
	m.idx.verdicts.bytes = maxVerdictBytes - 2*jobCharge(len(f.Msg.Result)) // room for two jobs
	readWhole(m)
	for _, seq := range []uint64{4, 6, 8, 10} {
		label, _ := rowOf(t, m, seq)
		if waits := seq <= 6; strings.Contains(label, markChecking) != waits {
			t.Errorf("frame %d (%d bytes of result) reads %q, want it waiting %v", seq, len(f.Msg.Result), label, waits)
		}
	}
}
