package ui

import (
	"cmp"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/progress"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
)

// streamsPane lists the execution streams the store remembers: request id
// and tag, MIME type (and how much the store kept of a sampled stream),
// bytes so far, rate, state, and a progress bar when the peer announced
// the size.
type streamsPane struct {
	x      *index
	st     *look.Styles
	list   []capture.StreamStats // snapshot taken at the last refresh, oldest first
	sel    int
	top    int
	rows   int
	bar    progress.Model
	picked bool // the user moved the selection; otherwise the newest is selected
}

// newStreamsPane returns an empty pane.
func newStreamsPane(x *index, st *look.Styles) *streamsPane {
	return &streamsPane{x: x, st: st, rows: 1, bar: progress.New(progress.WithoutPercentage())}
}

// SetSize sets the size of the pane's body.
func (p *streamsPane) SetSize(_, h int) { p.rows = max(h-1, 1) }

// update takes a new snapshot of the streams.
func (p *streamsPane) update(list []capture.StreamStats) {
	p.list = list
	if !p.picked {
		p.sel = len(list) - 1
	}
	p.clamp()
}

// clamp keeps the selection on a stream and in view.
func (p *streamsPane) clamp() {
	p.sel = min(max(p.sel, 0), max(len(p.list)-1, 0))
	if p.sel < p.top {
		p.top = p.sel
	}
	if p.sel >= p.top+p.rows {
		p.top = p.sel - p.rows + 1
	}
}

// selected returns the selected stream.
func (p *streamsPane) selected() (capture.StreamStats, bool) {
	if p.sel < 0 || p.sel >= len(p.list) {
		return capture.StreamStats{}, false
	}
	return p.list[p.sel], true
}

// HandleKey moves the selection.
func (p *streamsPane) HandleKey(msg tea.KeyPressMsg, k KeyMap) bool {
	v, ok := nav.Of(msg, k.Keys, p.rows)
	if ok {
		p.scroll(v)
	}
	return ok
}

// scroll applies a navigation to the selection.
func (p *streamsPane) scroll(v nav.Move) {
	p.picked = true
	p.sel = v.Apply(p.sel, len(p.list))
	p.clamp()
}

// clickRow selects the stream at line y of the body.
func (p *streamsPane) clickRow(y int) {
	if i := p.top + y - 1; y >= 1 && i < len(p.list) {
		p.picked, p.sel = true, i
		p.clamp()
	}
}

// Title names the pane and says how much the store kept of the selected
// stream when it sampled it.
func (p *streamsPane) Title() string {
	open := 0
	for _, s := range p.list {
		if s.State == capture.StreamOpen {
			open++
		}
	}
	title := fmt.Sprintf("Execution streams · %d · %d open", len(p.list), open)
	if s, ok := p.selected(); ok && s.Sampled() {
		title += fmt.Sprintf(" · %d/%d sampled: %s", s.Key.ReqID, s.Key.Tag, keptNote(s))
	}
	return title
}

// Render draws the streams in view.
func (p *streamsPane) Render(w, h int, focused bool) string {
	if h <= 0 {
		return ""
	}
	barW := 0
	if w >= 70 {
		barW = min(24, w-62)
	}
	labelW := max(w-(12+1+10+1+11+1+6+1)-barW-1, 6)
	row := func(id, mime, size, rt, state string) string {
		return look.CellRight(id, 12) + " " + look.Cell(mime, labelW) + " " + look.CellRight(size, 10) + " " +
			look.CellRight(rt, 11) + " " + look.Cell(state, 6) + " "
	}
	lines := []string{p.st.Ink.Muted.Paint(look.Cell(row("req/tag", "type", "bytes", "rate", "state"), w))}
	if len(p.list) == 0 {
		lines = append(lines, p.st.Ink.Muted.Paint(look.Cell("no execution streams", w)))
	}
	p.bar.SetWidth(barW)
	for i := p.top; i < len(p.list) && len(lines) < h; i++ {
		s := p.list[i]
		text := row(fmt.Sprintf("%d/%d", s.Key.ReqID, s.Key.Tag), p.label(s, labelW), look.ByteSize(s.Bytes), look.Rate(s.Rate), s.State.String())
		bar := strings.Repeat(" ", barW)
		if s.Size >= 0 && barW > 0 {
			bar = p.bar.ViewAs(fraction(s.Bytes, s.Size))
		} else if d := s.Elapsed(); barW > 0 && d > 0 {
			bar = look.Cell(look.Duration(d), barW)
		}
		lines = append(lines, p.paintRow(text, bar, w, i == p.sel, focused, s.State))
	}
	return strings.Join(look.PadLines(lines, w, h), "\n")
}

// label is a stream's type column, w cells wide: its MIME type, then how
// much of it the store kept when it sampled the stream ("256.0 KiB of
// 1.0 MiB kept", or "256.0 KiB kept" when that does not fit).
func (p *streamsPane) label(s capture.StreamStats, w int) string {
	mime := p.x.mimes[s.Key]
	if !s.Sampled() {
		return cmp.Or(mime, "-")
	}
	kept := keptNote(s)
	if mime != "" {
		mime += " · "
	}
	if len(mime)+len(kept) > w {
		kept = look.ByteSize(s.Kept()) + " kept"
	}
	return mime + kept
}

// keptNote says how much of a sampled stream the store kept.
func keptNote(s capture.StreamStats) string {
	return look.ByteSize(s.Kept()) + " of " + look.ByteSize(s.Bytes) + " kept"
}

// paintRow colours a row by its state and selection.
func (p *streamsPane) paintRow(text, bar string, w int, selected, focused bool, state capture.StreamState) string {
	switch {
	case selected && focused:
		text = p.st.Ink.SelFocused.Paint(text)
	case selected:
		text = p.st.Ink.SelBlurred.Paint(text)
	case state == capture.StreamError || state == capture.StreamReset:
		text = p.st.Ink.Error.Paint(text)
	case state == capture.StreamDone:
		text = p.st.Ink.Good.Paint(text)
	}
	return look.FitLine(text+bar, w)
}

// fraction is done/total clamped to [0, 1]; 1 for an empty total.
func fraction(done, total int64) float64 {
	if total <= 0 {
		return 1
	}
	return min(max(float64(done)/float64(total), 0), 1)
}
