// Package lint checks what a server offers (tools, prompts, resources,
// resource templates) the way clients will read it, and reports findings
// with a rule id, a severity, the JSON path it found, and a one-line fix.
//
// Every piece of server text a finding carries (a name, a description, a
// property key) is quoted and made safe to print with termtext, so a
// finding never holds an escape sequence a terminal would act on.
package lint

import (
	"cmp"
	"encoding/json"
	"slices"
)

// Severity is how bad a finding is.
type Severity string

// The severities, worst first. A finding of SeverityError makes
// `mcpscope lint` exit 6.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	SeverityInfo    Severity = "info"
)

// rank orders severities, worst first.
func (s Severity) rank() int {
	switch s {
	case SeverityError:
		return 0
	case SeverityWarning:
		return 1
	}
	return 2
}

// Finding is one problem a rule found.
type Finding struct {
	Rule     string   `json:"rule"`           // the rule's id, such as "schema-untyped"
	Severity Severity `json:"severity"`       // error, warning or info
	Subject  string   `json:"subject"`        // what it concerns: `tool "echo"`, `prompt "greet"`
	Path     string   `json:"path"`           // the JSON path it found, such as "$.tools[3].inputSchema.properties.x"
	Message  string   `json:"message"`        // one sentence: what is wrong
	Fix      string   `json:"fix"`            // one line: how to fix it
	Kind     string   `json:"kind,omitempty"` // the entry's listing: "tool", "prompt", "resource" or "resourceTemplate"; "" for the server as a whole
	Name     string   `json:"name,omitempty"` // the entry's name as listed (a resource's uri when it has none, "#3" for the fourth entry when neither); "" for a whole listing
}

// Offer is what a server offers, as it listed it: each entry the raw JSON
// object of its listing, in the order listed.
type Offer struct {
	ProtocolVersion   string            // the version the session negotiated ("" reads as the oldest era)
	Transport         string            // the transport's name (stdio, http, ws…); "http" is Streamable HTTP, whose rules are its alone
	Tools             []json.RawMessage // tools/list, every page
	Prompts           []json.RawMessage // prompts/list
	Resources         []json.RawMessage // resources/list
	ResourceTemplates []json.RawMessage // resources/templates/list
}

// Rule describes one check.
type Rule struct {
	ID       string   `json:"id"`
	Severity Severity `json:"severity"`
	Summary  string   `json:"summary"` // one line: what the rule checks
	Fix      string   `json:"fix"`     // one line: the usual fix (a finding may say more)
}

// Rules lists every rule Check applies, in a stable order.
func Rules() []Rule { return slices.Clone(rules) }

// Check applies every rule to o and returns the findings, worst first,
// then in listing order.
func Check(o Offer) []Finding {
	off := decodeOffer(o)
	r := &report{}
	for _, check := range checks {
		check(off, r)
	}
	r.addOverflow()
	slices.SortStableFunc(r.found, func(a, b found) int {
		if c := cmp.Compare(a.Severity.rank(), b.Severity.rank()); c != 0 {
			return c
		}
		return cmp.Compare(a.order, b.order)
	})
	out := make([]Finding, len(r.found))
	for i, f := range r.found {
		out[i] = f.Finding
	}
	return out
}
