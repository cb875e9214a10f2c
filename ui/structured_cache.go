package ui

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/structured"
)

// maxStructuredReports is how many structured reports the index keeps.
const maxStructuredReports = 32

// makeReport makes a structured report; a variable so that a test can
// count the reports made.
var makeReport = structured.Report

// structuredReports keeps the structured report of each tools/call result
// frame the detail pane showed (structured.Report compares and validates
// the whole value: seconds for megabytes), so that landing on the frame
// again costs nothing. A report is kept with the schema it was checked
// against: a tools/list seen later makes a new one.
type structuredReports struct {
	byFrame map[uint64]structuredReport
}

// structuredReport is one frame's report and the schema it checked.
type structuredReport struct {
	schema string
	lines  []structured.Line
}

// of returns the report of f's result checked against schema, making it
// on first use.
func (c *structuredReports) of(f *capture.Frame, schema json.RawMessage) []structured.Line {
	if r, ok := c.byFrame[f.Seq]; ok && r.schema == string(schema) {
		return r.lines
	}
	if c.byFrame == nil || len(c.byFrame) >= maxStructuredReports {
		c.byFrame = make(map[uint64]structuredReport)
	}
	lines := makeReport(f.Msg.Result, schema)
	c.byFrame[f.Seq] = structuredReport{schema: string(schema), lines: lines}
	return lines
}
