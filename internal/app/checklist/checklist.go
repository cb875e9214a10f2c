// Package checklist is the model of a diagnosis: the steps a walk or an
// authorization went through, how each ended, and the checklist that
// prints them. The doctor's probes and the OAuth flow fill a Report; the
// command line and the TUI render it, knowing nothing of the probes.
package checklist

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// Status is how a step ended.
type Status int

// Statuses of a step.
const (
	// Skipped: an earlier step failed, or the step does not apply.
	Skipped Status = iota
	// Passed: the layer works.
	Passed
	// Failed: the layer is where the connection breaks.
	Failed
)

// Mark is the checklist's sign for s: ✓, ✗ or -.
func (s Status) Mark() string {
	switch s {
	case Passed:
		return "✓"
	case Failed:
		return "✗"
	}
	return "-"
}

// Class is the kind of a failure, which picks the exit code.
type Class int

// Classes of failure.
const (
	// Connection: the transport could not be set up or went away.
	Connection Class = iota
	// Timeout: the layer did not answer in time.
	Timeout
	// Protocol: the server broke the protocol.
	Protocol
	// Usage: the target itself is wrong.
	Usage
)

// Result is one step of the walk.
type Result struct {
	// Step names the layer: "target", "command", "dns", "tcp", "tls",
	// "http", "websocket", "quic", "webtransport", "auth", "handshake",
	// "tools/list".
	Step string
	// Status says how it ended.
	Status Status
	// Detail is what the step found, or why it failed or was skipped
	// (sanitized, one line).
	Detail string
	// Took is how long the step ran.
	Took time.Duration
	// Fix is a one-line suggestion when the step failed.
	Fix string
	// Class is the kind of failure when the step failed.
	Class Class
	// Err is the failure's cause, when there is one.
	Err error
}

// Report is the outcome of a walk.
type Report struct {
	// Title names the checklist on its first line ("" is "doctor"; an
	// OAuth flow's is "authorization").
	Title string
	// Target is the target as given (URL or command line).
	Target string
	// Results are the steps in order.
	Results []Result
}

// Failure returns the first failed step, or nil when every step passed.
func (r Report) Failure() *Result {
	for i := range r.Results {
		if r.Results[i].Status == Failed {
			return &r.Results[i]
		}
	}
	return nil
}

// RenderOptions change how a report is printed.
type RenderOptions struct {
	// MaskTimes prints every duration as "T" (golden files).
	MaskTimes bool
	// Running says more steps are to come: with no failure yet, the last
	// line says so instead of "every step passed".
	Running bool
}

// detailMax caps a detail or fix line on the checklist.
const detailMax = 320

// Render prints the checklist, one line per step, then the first failure
// and its fix.
func (r Report) Render(w io.Writer, o RenderOptions) error {
	var b strings.Builder
	title := r.Title
	if title == "" {
		title = "doctor"
	}
	fmt.Fprintf(&b, "%s %s\n", title, termtext.LineMax(r.Target, detailMax))
	width := 0
	for _, res := range r.Results {
		width = max(width, len(res.Step))
	}
	for _, res := range r.Results {
		took := ""
		if res.Status != Skipped {
			took = formatTook(res.Took, o.MaskTimes)
		}
		line := fmt.Sprintf("  %s %-*s %8s  %s", res.Status.Mark(), width, res.Step, took, termtext.LineMax(res.Detail, detailMax))
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	if f := r.Failure(); f != nil {
		fmt.Fprintf(&b, "\n%s failed: %s\n", f.Step, termtext.LineMax(f.Detail, detailMax))
		if f.Fix != "" {
			fmt.Fprintf(&b, "fix: %s\n", termtext.LineMax(f.Fix, detailMax))
		}
	} else if o.Running {
		b.WriteString("\nunder way…\n")
	} else {
		b.WriteString("\nevery step passed\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// formatTook renders a step's duration, short.
func formatTook(d time.Duration, mask bool) string {
	switch {
	case mask:
		return "T"
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000)
	}
	return fmt.Sprintf("%.2fs", d.Seconds())
}
