package ui

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/progress"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
)

// streamsPane lists the streams the store remembers, in two sections:
// the execution streams and gateway streams (request id and tag, or a
// gateway stream's short GUID and way (streams_gateway.go), MIME type and
// how much the store kept of a sampled stream, bytes and (from 100
// columns) chunks so far, rate, state, and a progress bar when the peer
// announced the size), then the SSE streams of an HTTP session
// (streams_sse.go). The first section's column header stays on top; the
// selection runs over both sections' rows. The pane is named after what
// it lists (streamKind).
type streamsPane struct {
	x      *index
	st     *look.Styles
	list   []capture.StreamStats // snapshot taken at the last refresh, oldest first
	sse    []capture.SSEStats    // likewise, the SSE streams
	link   streamKind            // what the link carries: names an empty pane
	sel    int                   // index into list, then sse
	top    int                   // first line of the body below the header
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
func (p *streamsPane) update(list []capture.StreamStats, sse []capture.SSEStats) {
	p.list, p.sse = list, sse
	if !p.picked {
		p.sel = p.count() - 1
	}
	p.clamp()
}

// count is how many rows the pane lists, both sections.
func (p *streamsPane) count() int { return len(p.list) + len(p.sse) }

// lineOf is the body line (below the header) of row i: the SSE section
// has a header line of its own when it follows execution streams.
func (p *streamsPane) lineOf(i int) int {
	if len(p.list) > 0 && i >= len(p.list) {
		return i + 1
	}
	return i
}

// rowAt is the row at body line l, or -1 for the SSE section's header.
func (p *streamsPane) rowAt(l int) int {
	switch {
	case len(p.list) == 0 || len(p.sse) == 0 || l < len(p.list):
		return l
	case l == len(p.list):
		return -1
	}
	return l - 1
}

// clamp keeps the selection on a stream and in view, with its section's
// header when it is the section's first row.
func (p *streamsPane) clamp() {
	p.sel = min(max(p.sel, 0), max(p.count()-1, 0))
	l := p.lineOf(p.sel)
	first := l
	if len(p.list) > 0 && p.sel == len(p.list) {
		first = l - 1
	}
	if first < p.top {
		p.top = first
	}
	if l >= p.top+p.rows {
		p.top = l - p.rows + 1
	}
}

// selected returns the selected execution or gateway stream.
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
	p.sel = v.Apply(p.sel, p.count())
	p.clamp()
}

// clickRow selects the stream at line y of the body (line 0 is the
// column header).
func (p *streamsPane) clickRow(y int) {
	if y < 1 {
		return
	}
	if i := p.rowAt(p.top + y - 1); i >= 0 && i < p.count() {
		p.picked, p.sel = true, i
		p.clamp()
	}
}

// firstSeq is the Seq of the selected stream's first held frame, or 0.
func (p *streamsPane) firstSeq() uint64 {
	if s, ok := p.selected(); ok {
		return s.FirstSeq
	}
	if s, ok := p.selectedSSE(); ok {
		return s.FirstSeq
	}
	return 0
}

// Title names the pane after what it lists, with its counts, and says
// how much the store kept of the selected stream when it sampled it and
// the selected gateway stream's GUID and way, or why the selected SSE
// stream broke or was cancelled.
func (p *streamsPane) Title() string {
	open := 0
	for _, s := range p.list {
		if s.State == capture.StreamOpen {
			open++
		}
	}
	for _, s := range p.sse {
		if s.State == capture.SSEOpen {
			open++
		}
	}
	name := p.name()
	title := fmt.Sprintf("%s%s · %d · %d open", strings.ToUpper(name[:1]), name[1:], p.count(), open)
	if s, ok := p.selected(); ok {
		ref := streamRef(s) + " " // an execution stream's, for its note
		if s.Label.ID != "" {
			title, ref = title+" · "+gatewayID(s), ""
		}
		if s.Sampled() {
			title += " · " + ref + "sampled: " + keptNote(s)
		}
	}
	if s, ok := p.selectedSSE(); ok && s.Why != "" {
		title += " · " + look.OneLine(s.Conn+" "+s.State.String()+": "+s.Why)
	}
	return title
}

// Render draws the streams in view: the first section's column header,
// then the rows (and the SSE section's header) from p.top.
func (p *streamsPane) Render(w, h int, focused bool) string {
	if h <= 0 {
		return ""
	}
	ex := p.execColumns(w)
	sse := sseColumnsFor(w)
	var lines []string
	if len(p.list) > 0 || p.link != sseStreams && len(p.sse) == 0 {
		lines = append(lines, ex.header(p.st, w))
	} else {
		lines = append(lines, sse.header(p.st, w))
	}
	if p.count() == 0 {
		lines = append(lines, p.st.Ink.Muted.Paint(look.Cell("no "+streamKindNames[p.link]+" yet", w)))
	}
	for l := p.top; len(lines) < h && p.rowAt(l) < p.count(); l++ {
		switch i := p.rowAt(l); {
		case i < 0:
			lines = append(lines, sse.header(p.st, w))
		case i < len(p.list):
			lines = append(lines, p.execRow(ex, i, w, focused))
		default:
			lines = append(lines, p.sseRow(sse, i, w, focused))
		}
	}
	return strings.Join(look.PadLines(lines, w, h), "\n")
}

// execColumns are the widths of the execution and gateway streams'
// columns that vary: the stream's (wider for a gateway stream's GUID and
// way), its label's, its bar's, and its chunks', 0 where the pane is too
// narrow to count them.
type execColumns struct {
	gateway                bool // the rows hold gateway streams: the id column is theirs
	id, label, bar, chunks int
}

// chunksFrom is the pane width from which the chunk count has a column.
const chunksFrom = 100

// execColumns lays the execution streams' columns out in w cells.
func (p *streamsPane) execColumns(w int) execColumns {
	barW := 0
	if w >= 70 {
		barW = min(24, w-62)
	}
	p.bar.SetWidth(barW)
	chunks := 0
	if w >= chunksFrom {
		chunks = 7
	}
	gateway, id := p.listsGateway(), 12
	if gateway {
		id = gatewayIDWidth
	}
	return execColumns{gateway: gateway, id: id, label: max(w-(id+1+10+1+11+1+6+1)-barW-1-chunks-min(chunks, 1), 6), bar: barW, chunks: chunks}
}

// row lays one execution or gateway stream's cells out: request ids and
// tags to the right, GUIDs to the left, so that they line up.
func (c execColumns) row(id, mime, size, chunks, rt, state string) string {
	idCell := look.CellRight(id, c.id)
	if c.gateway {
		idCell = look.Cell(id, c.id)
	}
	row := idCell + " " + look.Cell(mime, c.label) + " " + look.CellRight(size, 10) + " "
	if c.chunks > 0 {
		row += look.CellRight(chunks, c.chunks) + " "
	}
	return row + look.CellRight(rt, 11) + " " + look.Cell(state, 6) + " "
}

// header is the execution and gateway streams' column header: a gateway
// stream is named by its GUID, an execution stream by its request id and
// tag.
func (c execColumns) header(st *look.Styles, w int) string {
	id := "req/tag"
	if c.gateway {
		id = "stream"
	}
	return st.Ink.Muted.Paint(look.Cell(c.row(id, "type", "bytes", "chunks", "rate", "state"), w))
}

// execRow draws stream i, an execution or a gateway stream.
func (p *streamsPane) execRow(c execColumns, i, w int, focused bool) string {
	s := p.list[i]
	text := c.row(streamRef(s), p.label(s, c.label), look.ByteSize(s.Bytes), strconv.FormatInt(s.Chunks, 10), look.Rate(s.Rate), s.State.String())
	bar := strings.Repeat(" ", c.bar)
	if s.Size >= 0 && c.bar > 0 {
		bar = p.bar.ViewAs(fraction(s.Bytes, s.Size))
	} else if d := s.Elapsed(); c.bar > 0 && d > 0 {
		bar = look.Cell(look.Duration(d), c.bar)
	}
	failed := s.State == capture.StreamError || s.State == capture.StreamReset
	return p.paintRow(text, bar, w, i == p.sel, focused, rowTintOf(s.State == capture.StreamDone, failed))
}

// label is a stream's type column, w cells wide: its MIME type, then how
// much of it the store kept when it sampled the stream ("256.0 KiB of
// 1.0 MiB kept", or "256.0 KiB kept" when that does not fit).
func (p *streamsPane) label(s capture.StreamStats, w int) string {
	mime := cmp.Or(s.Label.Text, p.x.mimes[s.Key])
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

// rowTint is how a row's state colours it.
type rowTint uint8

// Row tints: plain while open, good once done, an error when it failed.
const (
	tintPlain rowTint = iota
	tintGood
	tintBad
)

// rowTintOf picks the tint of a row that is done or failed.
func rowTintOf(done, failed bool) rowTint {
	switch {
	case failed:
		return tintBad
	case done:
		return tintGood
	}
	return tintPlain
}

// paintRow colours a row by its state and selection.
func (p *streamsPane) paintRow(text, bar string, w int, selected, focused bool, tint rowTint) string {
	switch {
	case selected && focused:
		text = p.st.Ink.SelFocused.Paint(text)
	case selected:
		text = p.st.Ink.SelBlurred.Paint(text)
	case tint == tintBad:
		text = p.st.Ink.Error.Paint(text)
	case tint == tintGood:
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
