// Package findings detects, in the frames of a capture, every departure
// from the MCP spec or the seeds that mcpscope can see (a line on a
// server's stdout that is not JSON, an Mcp-Method header that disagrees
// with the body, a missing resultType, structuredContent failing its
// tool's outputSchema, a stream index gap, a lying length prefix…), as
// Wireshark's Expert Info does: each a Finding with a severity, linked to
// its frame and, where it can be, to the bytes it concerns. The UI's
// Findings view, the traffic filter, headless --findings and lint read
// the same findings.
package findings

import "github.com/mcpscope/mcpscope/capture"

// Severity ranks a finding.
type Severity int

// The severities, lowest first.
const (
	Note Severity = iota
	Warning
	Error
)

// Finding is one departure found in one frame.
type Finding struct {
	Severity Severity
	// Code names the check ("stdout-not-json", "mcp-method-mismatch"…).
	Code string
	// Summary is one line, safe to print.
	Summary string
	// Seq is the frame's sequence number in the capture; Conn its
	// connection.
	Seq  uint64
	Conn string
	// Offset and Length are the bytes of the frame's Raw the finding
	// concerns; Length 0 when it concerns the frame as a whole.
	Offset, Length int
}

// Detector reads frames in capture order and reports the findings each
// one brings. Its memory is bounded whatever the capture holds.
type Detector struct{}

// NewDetector returns a detector that has read nothing.
func NewDetector() *Detector { return &Detector{} }

// Note reads one frame and returns the findings it brings, if any.
func (d *Detector) Note(f *capture.Frame) []Finding { return nil }
