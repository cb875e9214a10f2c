package ui

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/findings"
	"github.com/mcpscope/mcpscope/internal/app/schemacheck"
	"github.com/mcpscope/mcpscope/internal/app/structured"
)

// Bounds of the judgements of large tools/call results. A result of up
// to inlineVerdictBytes is judged (client.CheckToolResult, and the
// findings of its outputSchema) where the index reads it: a judgement
// costs about 0.1 ms per KiB of result, so such a result holds a key
// about 6 ms, 12 with its findings. A larger one, or one whose
// outputSchema is larger than inlineVerdictBytes (compiling a 160 KB
// schema takes about 0.3 s), is judged in a tea.Cmd, at most
// maxVerdictsInFlight at once across every Model (a 10 MiB result takes
// about half a second and 200 MiB of allocations), the others waiting in
// turn; its
// call shows as checking until its verdict arrives (toolVerdictMsg). The
// jobs waiting or under judgement hold at most maxVerdictBytes, each
// charged its result's bytes and verdictJobCost (the job and the frame it
// holds: a flood of tiny results of a tool with a large outputSchema is
// bounded too); past it a result is judged where it is read, as a small
// one is, so that nothing goes unjudged.
const (
	inlineVerdictBytes  = 64 << 10
	maxVerdictsInFlight = 2
	maxVerdictBytes     = 64 << 20
	verdictJobCost      = 512
)

// jobCharge is what a job judging a result of n bytes is charged against
// maxVerdictBytes.
func jobCharge(n int) int { return n + verdictJobCost }

// markChecking marks a tools/call result whose verdict is being judged;
// checkingText and checkingReportText say so in the detail of its call's
// verdict and of its structured report.
const (
	markChecking       = "⋯ checking"
	checkingText       = "checking the result (isError, outputSchema)…"
	checkingReportText = "checking structuredContent (its text, the outputSchema)…"
)

// judgedApart says whether the judgement of result against schema is
// left to a verdictJob, room allowing: either is past inlineVerdictBytes.
func judgedApart(result, schema json.RawMessage) bool {
	return len(result) > inlineVerdictBytes || len(schema) > inlineVerdictBytes
}

// verdictSlots bounds the judgements running at once across every Model:
// a replay's jump back replaces its Model, whose judgements asked for
// meanwhile must not add to the new one's.
var verdictSlots = make(chan struct{}, maxVerdictsInFlight)

// verdictStarted, when set, is called with the index's gen as a
// judgement starts, in its slot; a test counts the judgements running at
// once with it.
var verdictStarted atomic.Pointer[func(gen uint64)]

// compileApart compiles the outputSchemas a verdictJob reads; a variable
// so that a test can count the compilations.
var compileApart = schemacheck.CompileApart

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
	// compiled is schema compiled once for every job of the tool
	// (toolSchemas.compiledApart), nil when each job compiles its own.
	compiled func() (*schemacheck.Schema, error)
	result   json.RawMessage // nil when the call's verdict is known already
	finds    []findings.Deferred
	// reported is the result the detail pane's structured report is
	// asked of (structuredReports), checked against reportSchema; nil
	// when none is.
	reported     json.RawMessage
	reportSchema json.RawMessage
	size         int // what the job is charged: jobCharge of the result it holds
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

// judge runs the job once a slot is free (verdictSlots), unless ctx,
// its Model's, ended meanwhile: then no one reads its verdict, and it
// returns nil.
func (j verdictJob) judge(ctx context.Context, gen uint64) tea.Msg {
	if ctx.Err() != nil {
		return nil
	}
	verdictSlots <- struct{}{}
	defer func() { <-verdictSlots }()
	if ctx.Err() != nil {
		return nil
	}
	if started := verdictStarted.Load(); started != nil {
		(*started)(gen)
	}
	return j.run(gen)
}

// run judges the job, with schemas compiled apart (jobSchemas): the
// index judges the small results of the same tool where it reads them
// meanwhile, and a Schema runs one validation at a time.
func (j verdictJob) run(gen uint64) toolVerdictMsg {
	msg := toolVerdictMsg{gen: gen, seq: j.seq, call: j.call, size: j.size}
	schemas := jobSchemas{shared: j.schema, compiled: j.compiled}
	for _, d := range j.finds {
		schemas.offer(d.Compiled())
	}
	if j.result != nil {
		msg.judged, msg.failure = true, client.ToolResultCheckerWith(j.tool, j.schema, schemas.compile)(j.result)
	}
	for _, d := range j.finds {
		msg.found = append(msg.found, d.RunWith(schemas.compile)...)
	}
	if j.reported != nil {
		msg.reported, msg.reportSchema = true, j.reportSchema
		msg.report = structured.ReportWith(j.reported, j.reportSchema, schemas.compile)
	}
	return msg
}

// jobSchemas compiles each outputSchema a verdictJob reads once, so that
// the call's verdict, its findings and its report share it: a job's
// judgements run one after another, on its goroutine alone. The tool's
// schema compiled for every job (compiled) serves the text shared; a
// schema its findings' detector compiled once for its tool (offer) serves
// another text.
type jobSchemas struct {
	shared   json.RawMessage
	compiled func() (*schemacheck.Schema, error)
	byText   map[string]func() (*schemacheck.Schema, error)
}

// offer makes compiled, when not nil, the compile of schema, unless the
// job holds one already.
func (c *jobSchemas) offer(schema json.RawMessage, compiled func() (*schemacheck.Schema, error)) {
	if compiled == nil || c.isShared(schema) {
		return
	}
	if c.byText == nil {
		c.byText = map[string]func() (*schemacheck.Schema, error){}
	}
	if _, ok := c.byText[string(schema)]; !ok {
		c.byText[string(schema)] = compiled
	}
}

// isShared says whether schema is the text the tool's compile serves.
func (c *jobSchemas) isShared(schema json.RawMessage) bool {
	return c.compiled != nil && string(schema) == string(c.shared)
}

// compile compiles schema apart the first time the job asks for it.
func (c *jobSchemas) compile(schema json.RawMessage) (*schemacheck.Schema, error) {
	if c.isShared(schema) {
		return c.compiled()
	}
	compiled, ok := c.byText[string(schema)]
	if !ok {
		compiled = sync.OnceValues(func() (*schemacheck.Schema, error) { return compileApart(schema) })
		c.offer(schema, compiled)
	}
	return compiled()
}

// verdictQueue holds the judgements waiting for a turn and counts those
// running.
type verdictQueue struct {
	gen     uint64
	jobs    []verdictJob
	running int
	bytes   int // of the jobs waiting and running
}

// room says whether a job charged size (jobCharge) may wait for a
// judgement.
func (q *verdictQueue) room(size int) bool { return q.bytes+size <= maxVerdictBytes }

// joins says whether a job for frame seq would merge with the last job
// waiting, which judges the same frame.
func (q *verdictQueue) joins(seq uint64) bool {
	n := len(q.jobs)
	return n > 0 && q.jobs[n-1].seq == seq
}

// push queues job, merged with the last job when it judges the same
// frame.
func (q *verdictQueue) push(job verdictJob) {
	if q.joins(job.seq) {
		last := &q.jobs[len(q.jobs)-1]
		last.finds = append(last.finds, job.finds...)
		if job.result != nil {
			last.call, last.tool, last.schema, last.compiled, last.result = job.call, job.tool, job.schema, job.compiled, job.result
		}
		if job.reported != nil {
			last.reported, last.reportSchema = job.reported, job.reportSchema
			if last.compiled == nil {
				last.schema, last.compiled = job.schema, job.compiled
			}
		}
		q.bytes += max(job.size-last.size, 0)
		last.size = max(last.size, job.size)
		return
	}
	q.bytes += job.size
	q.jobs = append(q.jobs, job)
}

// deferVerdict leaves the verdict of the tools/call result f of call c
// to a verdictJob when it or its schema is large (judgedApart) and there
// is room; it reports whether it did.
func (x *index) deferVerdict(f *capture.Frame, k callKey, c *callInfo, tool string, schema json.RawMessage) bool {
	size := jobCharge(len(f.Msg.Result))
	if !judgedApart(f.Msg.Result, schema) || !x.verdicts.room(size) {
		return false
	}
	c.failure, c.checking = nil, f.Seq
	x.verdicts.push(verdictJob{seq: f.Seq, call: k, tool: tool, schema: schema, compiled: x.tools.compiledApart(k.conn, tool), result: f.Msg.Result, size: size})
	return true
}

// deferFindings queues the judgements the Findings view's detector left
// reading a frame, or runs them here when the queue has no room. Those
// of the frame the last job waiting judges join it, which holds the
// frame's result already: they need no room.
func (x *index) deferFindings() {
	q := &x.verdicts
	for _, d := range x.views.findings.TakeDeferred() {
		size := jobCharge(d.Size())
		if !q.joins(d.Seq()) && !q.room(size) {
			x.views.findings.Late(d.Run())
			continue
		}
		q.push(verdictJob{seq: d.Seq(), finds: []findings.Deferred{d}, size: size})
	}
}

// checkingResult says whether the result f of call c waits for its
// verdict.
func (c *callInfo) checkingResult(f *capture.Frame) bool {
	return c.checking != 0 && c.checking == f.Seq
}

// judgeVerdicts starts the judgements waiting, as many as may run.
func (m *Model) judgeVerdicts() tea.Cmd {
	q, ctx := &m.idx.verdicts, m.ctx
	var cmds []tea.Cmd
	for q.running < maxVerdictsInFlight && len(q.jobs) > 0 {
		job, gen := q.jobs[0], q.gen
		q.jobs[0] = verdictJob{}
		q.jobs = q.jobs[1:]
		q.running++
		cmds = append(cmds, func() tea.Msg { return job.judge(ctx, gen) })
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
	if m.detail.about(msg) {
		m.detail.dirty = true // it said checking: it reads the verdict now
	}
	m.syncSelection()
	return m.judgeVerdicts()
}

// about says whether the frame shown is one a verdict changes the detail
// of: the frame judged, or a frame of the call whose verdict it brings.
// The detail of any other frame is not laid out again (a 10 MiB result's
// costs about 0.1 s).
func (p *detailPane) about(msg toolVerdictMsg) bool {
	if p.frame == nil {
		return false
	}
	if p.frame.Seq == msg.seq {
		return true
	}
	c, ok := p.x.lookup(p.frame)
	return ok && msg.judged && p.x.calls[msg.call] == c
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
