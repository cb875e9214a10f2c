package ui

import (
	"encoding/json"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/schemacheck"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
)

// hugeRowsSchema is bigToolSchema with enough optional properties
// besides rows to be past inlineVerdictBytes: it judges the same results.
func hugeRowsSchema() string { return rowsSchemaPast(inlineVerdictBytes) }

// rowsSchemaPast is bigToolSchema with enough optional properties besides
// rows to be past n bytes.
func rowsSchemaPast(n int) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","required":["rows"],"properties":{"rows":{"type":"array",
 "items":{"type":"object","required":["n","s"],"properties":{"n":{"type":"number"},"s":{"type":"string"}}}}`)
	for i := 0; b.Len() <= n; i++ {
		b.WriteString(`,"extra` + strconv.Itoa(i) + `":{"type":"string","maxLength":64}`)
	}
	b.WriteString(`}}`)
	return b.String()
}

// The detail of a result under judgement reads its verdict in the
// Update that brings it: the screen stops saying it is checking.
func TestToolVerdictRedrawsDetail(t *testing.T) {
	st := rowsStore(t, true, inlineVerdictBytes*2)
	m, cmd := readKept(t, st)
	m.traffic.selectSeq(3)
	m.syncSelection()
	press(m, "down")
	if s := screenText(m); !strings.Contains(s, checkingText) {
		t.Fatalf("the screen of the result under judgement does not say so:\n%s", s)
	}
	m.Update(verdictOf(t, cmd, 4))
	if s := screenText(m); strings.Contains(s, checkingText) || !strings.Contains(s, "outputSchema") {
		t.Errorf("the screen once the verdict arrived:\n%s", s)
	}
}

// A key sent while a screen is open (the Findings view) starts the
// structured report its choice asked for: choosing the finding of a large
// result selects it, the report is made in a command the key's Update
// returns, and the detail shows it once it arrives.
func TestStructuredReportStartsFromFindingsView(t *testing.T) {
	st := rowsStore(t, true, inlineVerdictBytes*2, 1<<10) // the pass leaves the small result shown
	m, cmd := readKept(t, st)
	m.traffic.selectSeq(1)
	m.syncSelection()
	m.Update(verdictOf(t, cmd, 4))
	press(m, "!")
	if m.overlay == nil {
		t.Fatal("! opened no Findings view")
	}
	var cmds []tea.Cmd
	cmds = append(cmds, press(m, "down"), press(m, "enter"))
	if f, ok := m.traffic.selected(); !ok || f.Seq != 4 {
		t.Fatalf("the finding's enter selected %v, want frame 4", f)
	}
	if q := &m.idx.verdicts; len(q.jobs) != 0 || q.running != 1 {
		t.Fatalf("after the keys %d reports wait, %d run; want the detail's report running", len(q.jobs), q.running)
	}
	m.Update(verdictOf(t, tea.Batch(cmds...), 4))
	press(m, "esc") // the detail shows beside the Findings
	if s := screenText(m); strings.Contains(s, "checking structuredContent") || !strings.Contains(s, "fails outputSchema with 1 error") {
		t.Errorf("the screen once the report arrived and the view closed:\n%s", s)
	}
}

// countCompiles counts the compilations of verdictJobs until the test
// ends.
func countCompiles(t *testing.T) *atomic.Int32 {
	var compiles atomic.Int32
	saved := compileApart
	t.Cleanup(func() { compileApart = saved })
	compileApart = func(s json.RawMessage) (*schemacheck.Schema, error) {
		compiles.Add(1)
		return schemacheck.CompileApart(s)
	}
	return &compiles
}

// The small results of a tool whose outputSchema is past
// inlineVerdictBytes are judged in commands, as a large result is:
// compiling the schema is what costs, and it is compiled once for them
// all.
func TestSmallResultLargeSchemaJudgedApart(t *testing.T) {
	compiles := countCompiles(t)
	st := rowsStoreOf(t, hugeRowsSchema(), true, 1<<10, 1<<10, 1<<10)
	m, cmd := readKept(t, st)
	for seq := uint64(4); seq <= 8; seq += 2 {
		if label, _ := rowOf(t, m, seq); !strings.Contains(label, markChecking) {
			t.Fatalf("frame %d was judged where it was read: %q", seq, label)
		}
	}
	for seq := uint64(4); seq <= 8; seq += 2 {
		_, next := m.Update(verdictOf(t, cmd, seq))
		cmd = tea.Batch(cmd, next)
	}
	if label, bad := rowOf(t, m, 4); !strings.HasPrefix(label, "result ✗ outputSchema") || !bad {
		t.Errorf("after its verdict the result reads %q (failed %v)", label, bad)
	}
	if label, bad := rowOf(t, m, 8); !strings.HasPrefix(label, "result · tools/call rows") || bad {
		t.Errorf("after its verdict the last result reads %q (failed %v)", label, bad)
	}
	if n := compiles.Load(); n != 1 {
		t.Errorf("the judgements of 3 results compiled the schema %d times", n)
	}
}

// The detail's structured report of a small result of a tool whose
// outputSchema is large is made in a job with the schema its listing
// compiled once, not compiled again.
func TestStructuredReportUsesTheListingsCompile(t *testing.T) {
	compiles := countCompiles(t)
	st := rowsStoreOf(t, hugeRowsSchema(), true, 1<<10, 1<<10) // the pass leaves the second shown
	m, cmd := readKept(t, st)
	m.traffic.selectSeq(3)
	m.syncSelection()
	_, arrived := m.Update(verdictOf(t, cmd, 4))
	_, key := m.Update(keyPress("down"))
	cmd = tea.Batch(arrived, key)
	if d := detailText(m); !strings.Contains(d, checkingReportText) {
		t.Fatalf("the detail of the small result of a large schema:\n%s", d)
	}
	m.Update(verdictOf(t, cmd, 4))
	if d := detailText(m); strings.Contains(d, checkingReportText) || !strings.Contains(d, "fails outputSchema") {
		t.Errorf("the detail once the report arrived:\n%s", d)
	}
	if n := compiles.Load(); n != 1 {
		t.Errorf("the verdict and the report compiled the schema %d times", n)
	}
}

// A job judging a large result (its call's verdict and its findings)
// compiles the outputSchema once.
func TestVerdictJobCompilesSchemaOnce(t *testing.T) {
	compiles := countCompiles(t)
	st := rowsStore(t, true, inlineVerdictBytes*2)
	_, cmd := readKept(t, st)
	v := verdictOf(t, cmd, 4)
	if !v.judged || v.failure == nil || len(v.found) != 1 {
		t.Fatalf("the job judged %v (%v), found %d", v.judged, v.failure, len(v.found))
	}
	if n := compiles.Load(); n != 1 {
		t.Errorf("the job compiled the schema %d times", n)
	}
}

// The findings of a large result join the job of its call's verdict even
// when the bytes waiting are near maxVerdictBytes: that job holds the
// result already, so they are not judged in the Update that reads it.
func TestFindingsJoinTheirFrameJobNearBound(t *testing.T) {
	st := rowsStore(t, false, 15<<20, 15<<20, 15<<20, 15<<20)
	m, _ := readKept(t, st)
	q := &m.idx.verdicts
	if len(q.jobs) == 0 {
		t.Fatal("no job waits")
	}
	for _, j := range q.jobs {
		if j.result != nil && len(j.finds) == 0 {
			t.Errorf("frame %d: its call's verdict waits, its findings were judged where it was read", j.seq)
		}
	}
}

// The judgements of several Models (a replay's jump back replaces its
// Model) run at most maxVerdictsInFlight at once across them all, the
// others waiting for a slot; those of a Model closed since never run.
func TestToolVerdictsBoundedAcrossModels(t *testing.T) {
	st := rowsStore(t, false, inlineVerdictBytes+1024)
	var ours sync.Map // the gens of the Models made here
	jobsOf := func(counted bool) (*Model, []tea.Cmd) {
		m, _ := readKept(t, st) // the commands of its pass never run
		q := &m.idx.verdicts
		q.running = 0
		for seq := uint64(3); seq <= 4; seq++ {
			q.push(verdictJob{seq: seq, reported: rowsResult(1<<10, false), size: 1 << 10})
		}
		if counted {
			ours.Store(q.gen, true)
		}
		batch, _ := m.judgeVerdicts()().(tea.BatchMsg)
		if len(batch) != maxVerdictsInFlight {
			t.Fatalf("a Model started %d judgements", len(batch))
		}
		return m, batch
	}
	release := make(chan struct{})
	var started atomic.Int32
	hook := func(gen uint64) {
		if _, ok := ours.Load(gen); ok {
			started.Add(1)
			<-release
		}
	}
	verdictStarted.Store(&hook)
	defer verdictStarted.Store(nil)

	closed, cmds := jobsOf(false)
	_ = closed.Close()
	for _, c := range cmds {
		if msg := c(); msg != nil {
			t.Errorf("a judgement of a closed Model ran: %T", msg)
		}
	}
	cmds = nil
	for range 3 {
		_, batch := jobsOf(true)
		cmds = append(cmds, batch...)
	}
	msgs := make(chan tea.Msg, len(cmds))
	for _, c := range cmds {
		go func() { msgs <- c() }()
	}
	screentest.WaitFor(t, "every judgement running or waiting for a slot", func() bool {
		return int(started.Load())+waitingForSlot() >= len(cmds)
	})
	if n := started.Load(); n > maxVerdictsInFlight {
		t.Errorf("%d judgements of %d Models ran at once", n, len(cmds)/maxVerdictsInFlight)
	}
	close(release)
	for range cmds {
		if _, ok := (<-msgs).(toolVerdictMsg); !ok {
			t.Error("a judgement brought no verdict")
		}
	}
}

// waitingForSlot counts the goroutines of verdictJob.judge blocked on
// verdictSlots.
func waitingForSlot() int {
	buf := make([]byte, 1<<22)
	n := 0
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		if strings.Contains(g, "[chan send") && strings.Contains(g, "ui.verdictJob.judge(") {
			n++
		}
	}
	return n
}
