package ui

import (
	"encoding/json"
	"math"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/ui/look"
)

// Bounds of the progress board.
const (
	maxProgressRows    = 64  // requests with a bar
	maxProgressMessage = 512 // bytes of a progress message kept
)

// progressEnd says how the request of a bar ended.
type progressEnd uint8

const (
	inFlight    progressEnd = iota // no answer yet
	endAnswered                    // a result came
	endFailed                      // an error came
)

// progressBar is the progress of one request as its reports tell it — MCP
// notifications/progress and MCP-Flow progress datagrams alike — and what
// became of the request: answered, failed or cancelled.
type progressBar struct {
	call            callKey
	id              jsonrpc.ID
	method          string    // the request's label (callLabel); "" when its request was not seen
	sent            time.Time // when the request was captured, else when its first report was
	progress, total float64   // total 0: the server gave none
	message         string    // the latest message, safe to print on one line
	reports         int
	last            time.Time // the newest report, cancellation or answer
	end             progressEnd
	ended           time.Time // when the answer came
	cancelled       time.Time // when the first cancellation was seen; zero when none
	afterCancel     int       // reports that arrived after the cancellation
}

// isCancelled reports whether a cancellation of the request was seen.
func (b *progressBar) isCancelled() bool { return !b.cancelled.IsZero() }

// elapsed is the time from the request to its answer or cancellation, or
// to now while it runs.
func (b *progressBar) elapsed(now time.Time) time.Duration {
	until := now
	switch {
	case b.end != inFlight:
		until = b.ended
	case b.isCancelled():
		until = b.cancelled
	}
	return max(until.Sub(b.sent), 0)
}

// progressReport is one progress report of either kind.
type progressReport struct {
	progress, total float64
	message         string
}

// progressBoard is the one board of progress: a bar per request that
// reported progress, the most recently active last, at most
// maxProgressRows of them (past twice that the oldest are forgotten).
type progressBoard struct {
	bars []progressBar
	now  time.Time // the newest time seen, of a frame or a refresh
}

// tick moves the board's clock forward to t.
func (b *progressBoard) tick(t time.Time) {
	if t.After(b.now) {
		b.now = t
	}
}

// find returns the index of the bar of call k, or -1.
func (b *progressBoard) find(k callKey) int {
	for i := len(b.bars) - 1; i >= 0; i-- {
		if b.bars[i].call == k {
			return i
		}
	}
	return -1
}

// touch moves bar i to the end (the most recently active) and returns it.
// It moves the bars in place: a report or an answer of a flood costs no
// copy of the board.
func (b *progressBoard) touch(i int) *progressBar {
	bar := b.bars[i]
	copy(b.bars[i:], b.bars[i+1:])
	last := &b.bars[len(b.bars)-1]
	*last = bar
	return last
}

// report adds a progress report for call k (whose request id is id; c is
// what the index knows of the call, or nil) that arrived at at. A report
// read after the call's cancellation counts as progress after cancel.
func (b *progressBoard) report(k callKey, id jsonrpc.ID, c *callInfo, r progressReport, at time.Time) {
	var bar *progressBar
	if i := b.find(k); i >= 0 {
		bar = b.touch(i)
	} else {
		nb := progressBar{call: k, id: id, sent: at}
		if c != nil {
			nb.method = c.method
			if !c.sent.IsZero() {
				nb.sent = c.sent
			}
			if c.cancelSeq != 0 {
				nb.cancelled = c.cancelAt
			}
		}
		b.bars = appendBounded(b.bars, nb, maxProgressRows)
		bar = &b.bars[len(b.bars)-1]
	}
	bar.progress, bar.total = finite(r.progress), max(finite(r.total), 0)
	bar.message = look.OneLine(termtext.Shorten(r.message, maxProgressMessage))
	bar.reports++
	bar.last = at
	if bar.isCancelled() {
		bar.afterCancel++
	}
}

// cancel marks the bar of call k cancelled at at.
func (b *progressBoard) cancel(k callKey, at time.Time) {
	if i := b.find(k); i >= 0 && !b.bars[i].isCancelled() {
		bar := b.touch(i)
		bar.cancelled, bar.last = at, at
	}
}

// answer ends the bar of call k: failed says the answer is an error.
func (b *progressBoard) answer(k callKey, failed bool, at time.Time) {
	if i := b.find(k); i >= 0 && b.bars[i].end == inFlight {
		bar := b.touch(i)
		bar.end, bar.ended, bar.last = endAnswered, at, at
		if failed {
			bar.end = endFailed
		}
	}
}

// newestFirst returns up to n bars that keep says to keep, the most
// recently active first.
func (b *progressBoard) newestFirst(n int, keep func(*progressBar) bool) []*progressBar {
	out := make([]*progressBar, 0, min(n, len(b.bars)))
	for i := len(b.bars) - 1; i >= 0 && len(out) < n; i-- {
		if keep == nil || keep(&b.bars[i]) {
			out = append(out, &b.bars[i])
		}
	}
	return out
}

// finite is v, or 0 for NaN and the infinities a CBOR progress datagram
// may carry.
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// notifiedProgress reads the report of an MCP notifications/progress
// frame (the datagram board reads MCP-Flow's progress datagrams).
func notifiedProgress(f *capture.Frame) (progressReport, bool) {
	if _, ok := progressID(f); !ok {
		return progressReport{}, false
	}
	var p struct {
		Progress float64  `json:"progress"`
		Total    *float64 `json:"total"`
		Message  string   `json:"message"`
	}
	if json.Unmarshal(f.Msg.Params, &p) != nil {
		return progressReport{}, false
	}
	r := progressReport{progress: p.Progress, message: p.Message}
	if p.Total != nil {
		r.total = *p.Total
	}
	return r, true
}
