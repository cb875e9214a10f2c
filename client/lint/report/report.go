// Package report prints what `mcpscope lint` found and what a server's
// offer costs: as text for a person, as JSON for scripts, as SARIF 2.1.0
// for code scanning and as JUnit XML for CI test views.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mcpscope/mcpscope/client/lint"
	"github.com/mcpscope/mcpscope/client/lint/tokencost"
	"github.com/mcpscope/mcpscope/internal/app/theme"
)

// Report is what one lint run found.
type Report struct {
	Target          string          // what was linted, as shown to a person (no password)
	ProtocolVersion string          // the version the session negotiated
	Findings        []lint.Finding  // worst first
	Rules           []lint.Rule     // every rule applied
	Cost            tokencost.Table // what each entry costs
}

// Errors is how many findings are of error severity: any makes lint fail.
func (r Report) Errors() int { return r.count(lint.SeverityError) }

// count is how many findings are of severity s.
func (r Report) count(s lint.Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == s {
			n++
		}
	}
	return n
}

// rules lists every rule applied, then any rule a finding names that the
// list lacks, so that each finding has its rule.
func (r Report) rules() []lint.Rule {
	out := append([]lint.Rule(nil), r.Rules...)
	known := map[string]bool{}
	for _, rule := range out {
		known[rule.ID] = true
	}
	for _, f := range r.Findings {
		if !known[f.Rule] {
			known[f.Rule] = true
			out = append(out, lint.Rule{ID: f.Rule, Severity: f.Severity})
		}
	}
	return out
}

// Format is one of the ways a report prints.
type Format string

// The formats.
const (
	Text  Format = "text"
	JSON  Format = "json"
	SARIF Format = "sarif"
	JUnit Format = "junit"
)

// Formats lists every format, in the order help shows them.
var Formats = []Format{Text, JSON, SARIF, JUnit}

// ParseFormat reads a format's name.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return "", fmt.Errorf("unknown format %q (want %s)", s, strings.Join(names, ", "))
}

// Options change how a report prints.
type Options struct {
	// Palette colours the text format; nil prints it plain.
	Palette *theme.Palette
	// Version is mcpscope's version, which SARIF names as the tool's.
	Version string
	// Artifact is the file SARIF results point at, a path in the
	// repository such as server.json: code scanning shows a result only
	// on a file. Empty, results carry only their JSON path.
	Artifact string
	// Verbose lists every info finding in the text format; without it
	// they are folded, one line per rule.
	Verbose bool
}

// Write prints r in format f on w.
func Write(w io.Writer, f Format, r Report, o Options) error {
	switch f {
	case Text:
		return writeText(w, r, o)
	case JSON:
		return WriteJSON(w, r)
	case SARIF:
		return WriteSARIF(w, r, o)
	case JUnit:
		return WriteJUnit(w, r)
	}
	return fmt.Errorf("unknown format %q", f)
}

// jsonReport is the JSON format's document.
type jsonReport struct {
	Target          string          `json:"target"`
	ProtocolVersion string          `json:"protocolVersion,omitempty"`
	Summary         map[string]int  `json:"summary"`
	Findings        []lint.Finding  `json:"findings"`
	Rules           []lint.Rule     `json:"rules"`
	Cost            tokencost.Table `json:"cost"`
}

// WriteJSON prints r as one JSON object: target, protocolVersion, summary
// (findings by severity), findings, rules and cost.
func WriteJSON(w io.Writer, r Report) error {
	doc := jsonReport{
		Target: r.Target, ProtocolVersion: r.ProtocolVersion,
		Summary: map[string]int{
			string(lint.SeverityError):   r.count(lint.SeverityError),
			string(lint.SeverityWarning): r.count(lint.SeverityWarning),
			string(lint.SeverityInfo):    r.count(lint.SeverityInfo),
		},
		Findings: nonNil(r.Findings), Rules: nonNil(r.rules()), Cost: r.Cost,
	}
	doc.Cost.Items = nonNil(doc.Cost.Items)
	doc.Cost.Encodings = nonNil(doc.Cost.Encodings)
	if doc.Cost.Total == nil {
		doc.Cost.Total = map[string]int{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// nonNil turns a nil slice into an empty one, which JSON prints as [].
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
