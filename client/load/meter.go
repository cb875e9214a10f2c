package load

import (
	"maps"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// maxKinds bounds the error kinds told apart; the rest count as KindOther.
// A server answering with ever new error codes cannot grow the map.
const maxKinds = 32

// meter gathers the outcomes of a run's calls: two HDR histograms of
// latencies in microseconds (the run's and the current window's) and the
// counts. It is safe for concurrent use.
type meter struct {
	mu        sync.Mutex
	run, win  *hdrhistogram.Histogram
	top       int64 // the histograms' highest trackable value, µs
	completed int
	errors    map[string]int
	winDone   int
	winErrors int
	// The longest and shortest latencies exactly, where the histograms
	// round to their buckets.
	runMax, winMax, runMin int64
	unfinished             int
}

// newMeter returns a meter whose histograms tell latencies apart up to
// maxLatency (DefaultMaxLatency when 0).
func newMeter(maxLatency time.Duration) *meter {
	if maxLatency <= 0 {
		maxLatency = DefaultMaxLatency
	}
	top := max(maxLatency.Microseconds(), 2)
	return &meter{
		run:    hdrhistogram.New(1, top, 3),
		win:    hdrhistogram.New(1, top, 3),
		top:    top,
		errors: map[string]int{},
	}
}

// record counts one completed call that took took and ended as kind ("" for
// a success). Only an answered call's latency is recorded.
func (m *meter) record(took time.Duration, kind string) {
	us := min(max(took.Microseconds(), 1), m.top)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.completed++
	m.winDone++
	if kind != "" {
		if _, known := m.errors[kind]; !known && len(m.errors) >= maxKinds {
			kind = KindOther
		}
		m.errors[kind]++
		m.winErrors++
	}
	if IsAnswer(kind) {
		// Neither fails: us lies within the histograms' range.
		_ = m.run.RecordValue(us)
		_ = m.win.RecordValue(us)
		m.runMax, m.winMax = max(m.runMax, us), max(m.winMax, us)
		if m.runMin == 0 || us < m.runMin {
			m.runMin = us
		}
	}
}

// cutOff counts a call the run's stop cut off.
func (m *meter) cutOff() {
	m.mu.Lock()
	m.unfinished++
	m.mu.Unlock()
}

// quantile is the histogram h's value at q, capped at the exact top: a
// bucket's upper bound may lie past the longest latency measured.
func quantile(h *hdrhistogram.Histogram, q float64, top int64) time.Duration {
	return micros(min(h.ValueAtQuantile(q), top))
}

// snapshot returns the figures so far; newWindow starts the next window.
func (m *meter) snapshot(elapsed time.Duration, started, scheduled int, newWindow bool) Snapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := Snapshot{
		Elapsed:    elapsed,
		Started:    started,
		Completed:  m.completed,
		Errors:     maps.Clone(m.errors),
		Timed:      int(m.run.TotalCount()),
		Scheduled:  max(scheduled, started),
		Unfinished: m.unfinished,
		Window: Window{
			Completed: m.winDone,
			Errors:    m.winErrors,
			P50:       quantile(m.win, 50, m.winMax),
			P99:       quantile(m.win, 99, m.winMax),
			Max:       micros(m.winMax),
		},
	}
	if s.Timed > 0 {
		s.P50 = quantile(m.run, 50, m.runMax)
		s.P90 = quantile(m.run, 90, m.runMax)
		s.P99 = quantile(m.run, 99, m.runMax)
		s.Max = micros(m.runMax)
		s.Min = micros(m.runMin)
		s.Mean = min(time.Duration(m.run.Mean()*float64(time.Microsecond)), s.Max)
	}
	if m.win.TotalCount() == 0 {
		s.Window.P50, s.Window.P99, s.Window.Max = 0, 0, 0
	}
	if elapsed > 0 {
		s.Throughput = float64(m.completed) / elapsed.Seconds()
		s.OKRate = float64(m.completed-errorCount(m.errors)) / elapsed.Seconds()
	}
	if newWindow {
		m.win.Reset()
		m.winDone, m.winErrors, m.winMax = 0, 0, 0
	}
	return s
}

// errorCount is the sum of the counts by kind.
func errorCount(by map[string]int) int {
	n := 0
	for _, c := range by {
		n += c
	}
	return n
}

// micros turns a histogram value into a duration.
func micros(us int64) time.Duration { return time.Duration(us) * time.Microsecond }
