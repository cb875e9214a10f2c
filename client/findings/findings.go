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

import "fmt"

// Severity ranks a finding.
type Severity int

// The severities, lowest first: a note is informational; a warning is a
// SHOULD broken, a deprecated feature in use or something suspicious; an
// error is a MUST broken or bytes that do not decode.
const (
	Note Severity = iota
	Warning
	Error
)

// String names the severity: "note", "warning", "error".
func (s Severity) String() string {
	switch s {
	case Note:
		return "note"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// ParseSeverity reads a severity's name.
func ParseSeverity(name string) (Severity, bool) {
	for _, s := range []Severity{Note, Warning, Error} {
		if s.String() == name {
			return s, true
		}
	}
	return 0, false
}

// Finding is one departure found in one frame.
type Finding struct {
	Severity Severity
	// Code names the check ("stdout-not-json", "mcp-method-mismatch"…):
	// one of Codes, stable across versions.
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
	// Path is the JSON path in the frame's body the finding concerns
	// ("result.structuredContent"), "" when none.
	Path string
}

// String is the finding on one line, as headless --findings prints it:
// "finding error stdout-not-json: … (frame 3)".
func (f Finding) String() string {
	return fmt.Sprintf("finding %s %s: %s (frame %d)", f.Severity, f.Code, f.Summary, f.Seq)
}
