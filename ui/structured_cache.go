package ui

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/schemacheck"
	"github.com/mcpscope/mcpscope/internal/app/structured"
)

// maxStructuredReports is how many structured reports the index keeps.
const maxStructuredReports = 32

// makeReport makes a structured report; a variable so that a test can
// count the reports made.
var makeReport = structured.ReportWith

// structuredReports keeps the structured report of each tools/call result
// frame the detail pane showed (structured.Report compares and validates
// the whole value: seconds for megabytes), so that landing on the frame
// again costs nothing. A report is kept with the schema it was checked
// against: a tools/list seen later makes a new one.
type structuredReports struct {
	byFrame map[uint64]structuredReport
	// queue takes the report of a result judged apart (judgedApart), made in
	// a tea.Cmd (tool_verdicts.go); pending are the frames it holds.
	queue   *verdictQueue
	pending map[uint64]bool
}

// structuredReport is one frame's report and the schema it checked.
type structuredReport struct {
	schema string
	lines  []structured.Line
}

// of returns the report of f's result checked against schema, making it
// on first use; ready is false while the report of a large result is
// made in a tea.Cmd, which keep then asks for. compiled, when not nil, is
// schema compiled apart once for its tool (toolSchemas.compiledApart),
// which the report uses, made in a tea.Cmd or here.
func (c *structuredReports) of(f *capture.Frame, schema json.RawMessage, compiled func() (*schemacheck.Schema, error)) (lines []structured.Line, ready bool) {
	if r, ok := c.byFrame[f.Seq]; ok && r.schema == string(schema) {
		return r.lines, true
	}
	res := f.Msg.Result
	size := jobCharge(len(res))
	if c.queue != nil && judgedApart(res, schema) && (c.pending[f.Seq] || c.queue.room(size)) {
		if !c.pending[f.Seq] {
			if c.pending == nil {
				c.pending = make(map[uint64]bool)
			}
			c.pending[f.Seq] = true
			c.queue.push(verdictJob{seq: f.Seq, schema: schema, compiled: compiled, reported: res, reportSchema: schema, size: size})
		}
		return nil, false
	}
	lines = makeReport(res, schema, listedCompile(compiled))
	c.keep(f.Seq, schema, lines)
	return lines, true
}

// keep keeps the report of frame seq checked against schema.
func (c *structuredReports) keep(seq uint64, schema json.RawMessage, lines []structured.Line) {
	delete(c.pending, seq)
	if c.byFrame == nil || len(c.byFrame) >= maxStructuredReports {
		c.byFrame = make(map[uint64]structuredReport)
	}
	c.byFrame[seq] = structuredReport{schema: string(schema), lines: lines}
}
