package ui

import (
	"encoding/json"
	"slices"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/findings"
	"github.com/mcpscope/mcpscope/internal/app/structured"
)

// Bounds of the judgements of large tools/call results. A result of up
// to inlineVerdictBytes is judged (client.CheckToolResult, and the
// findings of its outputSchema) where the index reads it: a judgement
// costs about 0.1 ms per KiB of result, so such a result holds a key
// about 6 ms, 12 with its findings. A larger one is judged in a tea.Cmd,
// at most maxVerdictsInFlight at once (a 10 MiB result takes about half
// a second and 200 MiB of allocations), the others waiting in turn; its
// call shows as checking until its verdict arrives (toolVerdictMsg). The
// results waiting or under judgement hold at most maxVerdictBytes; past
// it a result is judged where it is read, as a small one is, so that
// nothing goes unjudged.
const (
	inlineVerdictBytes  = 64 << 10
	maxVerdictsInFlight = 2
	maxVerdictBytes     = 64 << 20
)

// markChecking marks a tools/call result whose verdict is being judged;
// checkingText and checkingReportText say so in the detail of its call's
// verdict and of its structured report.
const (
	markChecking       = "⋯ checking"
	checkingText       = "checking the result (isError, outputSchema)…"
	checkingReportText = "checking structuredContent (its text, the outputSchema)…"
)

// indexGens numbers the indexes of every Model, so that a verdict asked
// for by an index since replaced (a replay) changes nothing.
var indexGens atomic.Uint64

// verdictJob is the judgement of one large tools/call result, the frame
// seq: the call's verdict (result set), the findings the Findings view's
// detector left (finds) and the detail pane's structured report (reported
// set), as many of them as were asked for.
type verdictJob struct {
	seq    uint64
	call   callKey
	tool   string
	schema json.RawMessage
	result json.RawMessage // nil when the call's verdict is known already
	finds  []findings.Deferred
	// reported is the result the detail pane's structured report is
	// asked of (structuredReports), checked against reportSchema; nil
	// when none is.
	reported     json.RawMessage
	reportSchema json.RawMessage
	size         int // the bytes of result the job holds
}

// toolVerdictMsg is a verdictJob's outcome.
type toolVerdictMsg struct {
	gen     uint64
	seq     uint64
	call    callKey
	judged  bool // the call's verdict was asked for: failure is it
	failure *client.ToolFailure
	found   []findings.Finding
	// report is the structured report asked for, made against
	// reportSchema, when reported is set.
	reported     bool
	report       []structured.Line
	reportSchema json.RawMessage
	size         int
}

// run judges the job, with schemas compiled apart: the index judges the
// small results of the same tool where it reads them meanwhile, and a
// Schema runs one validation at a time.
func (j verdictJob) run(gen uint64) toolVerdictMsg {
	msg := toolVerdictMsg{gen: gen, seq: j.seq, call: j.call, size: j.size}
	if j.result != nil {
		msg.judged, msg.failure = true, client.ToolResultCheckerApart(j.tool, j.schema)(j.result)
	}
	for _, d := range j.finds {
		msg.found = append(msg.found, d.Run()...)
	}
	if j.reported != nil {
		msg.reported, msg.reportSchema = true, j.reportSchema
		msg.report = structured.ReportApart(j.reported, j.reportSchema)
	}
	return msg
}

// verdictQueue holds the judgements waiting for a turn and counts those
// running.
type verdictQueue struct {
	gen     uint64
	jobs    []verdictJob
	running int
	bytes   int // of the jobs waiting and running
	arrived int // verdicts arrived, so that a detail shown before one is redrawn
}

// room says whether a result of size bytes may wait for a judgement.
func (q *verdictQueue) room(size int) bool { return q.bytes+size <= maxVerdictBytes }

// push queues job, merged with the last job when it judges the same
// frame.
func (q *verdictQueue) push(job verdictJob) {
	if n := len(q.jobs); n > 0 && q.jobs[n-1].seq == job.seq {
		last := &q.jobs[n-1]
		last.finds = append(last.finds, job.finds...)
		if job.result != nil {
			last.call, last.tool, last.schema, last.result = job.call, job.tool, job.schema, job.result
		}
		if job.reported != nil {
			last.reported, last.reportSchema = job.reported, job.reportSchema
		}
		q.bytes += max(job.size-last.size, 0)
		last.size = max(last.size, job.size)
		return
	}
	q.bytes += job.size
	q.jobs = append(q.jobs, job)
}

// deferVerdict leaves the verdict of the tools/call result f of call c
// to a verdictJob when it is large and there is room; it reports whether
// it did.
func (x *index) deferVerdict(f *capture.Frame, k callKey, c *callInfo, tool string, schema json.RawMessage) bool {
	size := len(f.Msg.Result)
	if size <= inlineVerdictBytes || !x.verdicts.room(size) {
		return false
	}
	c.failure, c.checking = nil, f.Seq
	x.verdicts.push(verdictJob{seq: f.Seq, call: k, tool: tool, schema: schema, result: f.Msg.Result, size: size})
	return true
}

// deferFindings queues the judgements the Findings view's detector left
// reading a frame, or runs them here when the queue has no room.
func (x *index) deferFindings() {
	for _, d := range x.views.findings.TakeDeferred() {
		if !x.verdicts.room(d.Size()) {
			x.views.findings.Late(d.Run())
			continue
		}
		x.verdicts.push(verdictJob{seq: d.Seq(), finds: []findings.Deferred{d}, size: d.Size()})
	}
}

// checkingResult says whether the result f of call c waits for its
// verdict.
func (c *callInfo) checkingResult(f *capture.Frame) bool {
	return c.checking != 0 && c.checking == f.Seq
}

// judgeVerdicts starts the judgements waiting, as many as may run.
func (m *Model) judgeVerdicts() tea.Cmd {
	q := &m.idx.verdicts
	var cmds []tea.Cmd
	for q.running < maxVerdictsInFlight && len(q.jobs) > 0 {
		job, gen := q.jobs[0], q.gen
		q.jobs[0] = verdictJob{}
		q.jobs = q.jobs[1:]
		q.running++
		cmds = append(cmds, func() tea.Msg { return job.run(gen) })
	}
	return tea.Batch(cmds...)
}

// verdictArrived records a verdict: the call's mark, the findings, the
// filter's matches and the detail read it from now on. A verdict of an
// index since replaced changes nothing, nor does one of a call forgotten
// or answered again since.
func (m *Model) verdictArrived(msg toolVerdictMsg) tea.Cmd {
	x, q := m.idx, &m.idx.verdicts
	if msg.gen != q.gen {
		return nil
	}
	q.running--
	q.bytes -= msg.size
	q.arrived++
	x.views.findings.Late(msg.found)
	if msg.reported {
		x.reports.keep(msg.seq, msg.reportSchema, msg.report)
	}
	if c, ok := x.calls[msg.call]; ok && msg.judged && c.checking == msg.seq {
		c.failure, c.checking = msg.failure, 0
	}
	if f, ok := m.cfg.Store.Get(msg.seq); ok && x.filter != nil {
		x.filter.recheck(f, x)
	}
	m.traffic.sync()
	return m.judgeVerdicts()
}

// recheck matches f again, read already, whose verdict arrived since:
// it joins or leaves the matches.
func (v *filterView) recheck(f *capture.Frame, x *index) {
	seqs := &v.live
	if f.Seq < v.upTo {
		if f.Seq >= v.cursor {
			return // the backfill has yet to read it
		}
		seqs = &v.back
	}
	i, held := slices.BinarySearch(*seqs, f.Seq)
	switch match := v.fl.match(f, x); {
	case match && !held:
		*seqs = slices.Insert(*seqs, i, f.Seq)
	case !match && held:
		*seqs = slices.Delete(*seqs, i, i+1)
	}
}
