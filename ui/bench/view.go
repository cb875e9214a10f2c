package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/ui/look"
)

// Chart heights, in rows.
const (
	minChartRows = 3
	maxChartRows = 12
)

// maxKindText is the most runes of one error kind shown, maxKinds the
// most kinds.
const (
	maxKindText = 60
	maxKinds    = 8
)

// summary is the call on one line, made safe to print: its method and
// params, or for a tools/call the tool and its arguments.
func (c Call) summary() string {
	s, params := c.Method, c.Params
	if c.Tool != "" {
		var p struct {
			Arguments json.RawMessage `json:"arguments"`
		}
		_ = json.Unmarshal(c.Params, &p)
		s, params = s+" "+c.Tool, p.Arguments
	}
	if len(params) > 0 {
		s += " " + string(params)
	}
	return look.OneLine(termtext.Ellipsis(s, 512))
}

// Render draws the call, the settings, the figures and the chart in w×h.
func (b *Bench) Render(w, h int) string {
	st := b.d.Styles()
	label := func(name string) string { return st.Ink.Muted.Paint(fmt.Sprintf(" %-11s", name)) }
	lines := []string{
		label("call") + b.title,
		label("settings") + fmt.Sprintf("concurrency %d · duration %s", b.cfg.Concurrency, look.Duration(b.cfg.Duration)),
		label("state") + b.stateLine(),
		label("progress") + fmt.Sprintf("started %d · completed %d · %s", b.snap.Started, b.snap.Completed, look.Duration(b.snap.Elapsed)),
		label("throughput") + fmt.Sprintf("%.1f calls/s", b.snap.Throughput),
		label("latency") + fmt.Sprintf("p50 %s · p90 %s · p99 %s · max %s",
			millis(b.snap.P50), millis(b.snap.P90), millis(b.snap.P99), millis(b.snap.Max)),
		label("errors") + b.errorsLine(),
	}
	if rows := min(h-len(lines)-2, maxChartRows); rows >= minChartRows {
		lines = append(lines, "")
		lines = append(lines, b.hist.render(w, rows, st)...)
		lines = append(lines, strings.Repeat(" ", axisWidth)+legend(st))
	}
	for i, l := range lines {
		lines[i] = look.FitLine(l, w)
	}
	return strings.Join(look.PadLines(lines, w, h), "\n")
}

// stateLine says where the bench is, what ended the last run, and what
// enter does.
func (b *Bench) stateLine() string {
	st := b.d.Styles()
	switch {
	case b.state == stateRunning:
		return fmt.Sprintf("running %s of %s · %s stops, esc stops and closes",
			look.Duration(b.snap.Elapsed), look.Duration(b.cfg.Duration), b.keys.Stop.Help().Key)
	case errors.Is(b.err, errSessionEnded):
		return st.Ink.Error.Paint("the session ended after " + look.Duration(b.snap.Elapsed) + " · enter runs again on the current connection")
	case b.err != nil:
		return st.Ink.Error.Paint("failed: " + look.OneLine(b.err.Error()))
	case b.state == stateDone && b.stopped:
		return "stopped after " + look.Duration(b.snap.Elapsed) + " · enter runs again"
	case b.state == stateDone:
		return "done in " + look.Duration(b.snap.Elapsed) + " · enter runs again"
	}
	return "ready · enter runs · +/- concurrency · >/< duration · the calls show in the traffic too"
}

// errorsLine is the errors by kind, the most frequent first, each kind's
// text made safe to print and cut to maxKindText, the kinds past maxKinds
// counted together last.
func (b *Bench) errorsLine() string {
	if len(b.snap.Errors) == 0 {
		return "none"
	}
	top, other := topKinds(b.snap.Errors)
	total := other
	parts := make([]string, 0, len(top)+1)
	for _, k := range top {
		parts = append(parts, fmt.Sprintf("%s ×%d", look.OneLine(termtext.Ellipsis(k.text, maxKindText)), k.n))
		total += k.n
	}
	if other > 0 {
		parts = append(parts, fmt.Sprintf("%s ×%d", otherKinds, other))
	}
	return b.d.Styles().Ink.Error.Paint(fmt.Sprintf("%d: ", total) + strings.Join(parts, " · "))
}
