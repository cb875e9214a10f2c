package cli

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcpscope/mcpscope/client/load"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// benchSummary is bench's summary, as JSON and as text.
type benchSummary struct {
	Call        string         `json:"call"`
	Concurrency int            `json:"concurrency"`
	Rate        float64        `json:"rate,omitempty"`
	DurationMs  float64        `json:"durationMs,omitempty"`
	RequestCap  int            `json:"requestLimit,omitempty"`
	Started     int            `json:"started"`
	Scheduled   int            `json:"scheduled,omitempty"` // with --rate: the starts the rate had due
	Completed   int            `json:"completed"`
	Unfinished  int            `json:"unfinished"` // cut off by an interrupt or a lost connection
	OK          int            `json:"ok"`
	Errors      int            `json:"errors"`
	ErrorRate   float64        `json:"errorRate"`
	ElapsedMs   float64        `json:"elapsedMs"`
	Throughput  float64        `json:"throughput"`  // completed calls a second, errors included
	OKRate      float64        `json:"okPerSecond"` // successful calls a second
	Latency     *benchLatency  `json:"latencyMs"`
	ErrorKinds  []benchErrKind `json:"errorKinds"`
}

// benchLatency are the latency figures in milliseconds.
type benchLatency struct {
	Min, Mean, P50, P90, P99, Max float64
}

// benchErrKind is how many calls failed one way.
type benchErrKind struct {
	Kind  string `json:"kind"`
	Count int    `json:"count"`
}

// MarshalJSON writes the figures in lowercase, in the order people read them.
func (l benchLatency) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, f := range []struct {
		name string
		v    float64
	}{{"min", l.Min}, {"mean", l.Mean}, {"p50", l.P50}, {"p90", l.P90}, {"p99", l.P99}, {"max", l.Max}} {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(f.name) + ":" + strconv.FormatFloat(f.v, 'f', -1, 64))
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// newBenchSummary sums a run up.
func newBenchSummary(what benchCall, cfg load.Config, s load.Snapshot) benchSummary {
	errs := s.ErrorCount()
	sum := benchSummary{
		Call: what.label(), Concurrency: cfg.Concurrency, Rate: cfg.Rate,
		DurationMs: ms(cfg.Duration), RequestCap: cfg.Requests,
		Started: s.Started, Completed: s.Completed, OK: s.Completed - errs, Errors: errs,
		Unfinished: s.Unfinished,
		ElapsedMs:  ms(s.Elapsed), Throughput: round2(s.Throughput), OKRate: round2(s.OKRate),
		ErrorKinds: []benchErrKind{},
	}
	if cfg.Rate > 0 {
		sum.Scheduled = s.Scheduled
	}
	if s.Completed > 0 {
		sum.ErrorRate = float64(int(float64(errs)/float64(s.Completed)*1e4+0.5)) / 1e4
	}
	if s.Timed > 0 {
		sum.Latency = &benchLatency{Min: ms(s.Min), Mean: ms(s.Mean), P50: ms(s.P50), P90: ms(s.P90), P99: ms(s.P99), Max: ms(s.Max)}
	}
	for k, n := range s.Errors {
		sum.ErrorKinds = append(sum.ErrorKinds, benchErrKind{Kind: k, Count: n})
	}
	slices.SortFunc(sum.ErrorKinds, func(a, b benchErrKind) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Kind, b.Kind))
	})
	return sum
}

// ms is d in milliseconds, to the microsecond.
func ms(d time.Duration) float64 { return round3(float64(d) / float64(time.Millisecond)) }

func round2(v float64) float64 { return float64(int64(v*100+0.5)) / 100 }
func round3(v float64) float64 { return float64(int64(v*1000+0.5)) / 1000 }

// writeText writes the summary as aligned lines.
func (s benchSummary) writeText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	line := func(k, v string) { fmt.Fprintf(tw, "%s\t%s\n", k, v) }
	line("call", termtext.LineMax(s.Call, 120))
	line("concurrency", strconv.Itoa(s.Concurrency))
	if s.Rate > 0 {
		line("rate", strconv.FormatFloat(s.Rate, 'f', -1, 64)+"/s at most")
		started := fmt.Sprintf("%d of %d scheduled", s.Started, s.Scheduled)
		if short := s.Scheduled - s.Started; short > 0 {
			started += fmt.Sprintf(" (%d short: the rate was not kept)", short)
		}
		line("started", started)
	}
	line("completed", fmt.Sprintf("%d in %s", s.Completed, seconds(s.ElapsedMs)))
	if s.Unfinished > 0 {
		line("unfinished", fmt.Sprintf("%d cut off by the stop", s.Unfinished))
	}
	line("throughput", fmt.Sprintf("%.1f calls/s, %.1f ok/s", s.Throughput, s.OKRate))
	line("errors", fmt.Sprintf("%d (%.2f%%)", s.Errors, s.ErrorRate*100))
	for _, k := range s.ErrorKinds {
		line("  "+k.Kind, strconv.Itoa(k.Count))
	}
	if l := s.Latency; l != nil {
		line("latency", fmt.Sprintf("p50 %s  p90 %s  p99 %s  max %s", millis(l.P50), millis(l.P90), millis(l.P99), millis(l.Max)))
		line("", fmt.Sprintf("min %s  mean %s", millis(l.Min), millis(l.Mean)))
	} else {
		line("latency", "none: no call was answered")
	}
	return tw.Flush()
}

// seconds renders milliseconds as seconds: "10.02s".
func seconds(msv float64) string { return strconv.FormatFloat(msv/1000, 'f', 2, 64) + "s" }

// millis renders milliseconds with three significant figures: "0.412ms",
// "12.3ms", "1520ms".
func millis(v float64) string {
	switch {
	case v < 1:
		return strconv.FormatFloat(v, 'f', 3, 64) + "ms"
	case v < 10:
		return strconv.FormatFloat(v, 'f', 2, 64) + "ms"
	case v < 100:
		return strconv.FormatFloat(v, 'f', 1, 64) + "ms"
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + "ms"
}

// noSuccess says that no call of the run succeeded, and how they failed.
func noSuccess(s load.Snapshot) string {
	kinds := make([]string, 0, len(s.Errors))
	for k := range s.Errors {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	return fmt.Sprintf("no call succeeded: all %d failed (%s)", s.Completed, strings.Join(kinds, ", "))
}

// liveLine is the progress line a run rewrites in place on stderr at a
// terminal.
type liveLine struct{ out *lineWriter }

// newLiveLine returns the live line on diag, or nil when diag is not a
// terminal.
func newLiveLine(diag *lineWriter) *liveLine {
	if !isTerminal(diag.w) {
		return nil
	}
	return &liveLine{out: diag}
}

// show rewrites the line with s.
func (l *liveLine) show(s load.Snapshot) {
	text := fmt.Sprintf("%s  %d done  %.0f/s  %d errors  p50 %s  p99 %s",
		seconds(ms(s.Elapsed)), s.Completed, s.Throughput, s.ErrorCount(), millis(ms(s.P50)), millis(ms(s.P99)))
	l.write("\r"+text+"\x1b[K", true)
}

// clear erases the line before the summary.
func (l *liveLine) clear() {
	if l != nil {
		l.write("\r\x1b[K", false)
	}
}

// write writes raw bytes unless the run's stderr is closed, and notes
// whether the live line is left drawn: the run's other lines on stderr
// (--trace, warnings, log messages) erase it first, so that none is glued
// to it.
func (l *liveLine) write(s string, drawn bool) {
	l.out.mu.Lock()
	defer l.out.mu.Unlock()
	if !l.out.closed {
		_, _ = io.WriteString(l.out.w, s)
		l.out.live = drawn
	}
}
