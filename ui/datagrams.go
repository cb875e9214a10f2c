package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
)

// datagramsPane shows the datagram channels: the progress board (a bar
// per request, MCP-Flow datagrams and MCP notifications alike, the most
// recently active first), the audio level meter, raw rows of unknown
// channels and the log lines, newest at the bottom. The navigation keys
// scroll the log.
type datagramsPane struct {
	board    *datagramBoard
	progress *progressBoard
	st       *look.Styles
	back     int // log lines scrolled back from the newest
	rows     int
}

// newDatagramsPane returns the pane of a datagram board and a progress
// board.
func newDatagramsPane(b *datagramBoard, pb *progressBoard, st *look.Styles) *datagramsPane {
	return &datagramsPane{board: b, progress: pb, st: st, rows: 1}
}

// SetSize sets the size of the pane's body.
func (p *datagramsPane) SetSize(_, h int) { p.rows = max(h, 1) }

// HandleKey scrolls the log: up goes back in time.
func (p *datagramsPane) HandleKey(msg tea.KeyPressMsg, k KeyMap) bool {
	v, ok := nav.Of(msg, k.Keys, p.rows)
	if ok {
		p.scroll(v)
	}
	return ok
}

// scroll moves through the log lines.
func (p *datagramsPane) scroll(v nav.Move) {
	n := len(p.board.logs)
	switch {
	case v.Home:
		p.back = max(n-1, 0)
	case v.End:
		p.back = 0
	default:
		p.back = min(max(p.back-v.Delta, 0), max(n-1, 0))
	}
}

// Title names the pane.
func (p *datagramsPane) Title() string {
	return "Datagram channels · " + plural.Count(p.board.total, "datagram", "datagrams")
}

// Render draws progress bars, the audio meter, raw rows and the log.
func (p *datagramsPane) Render(w, h int, _ bool) string {
	if h <= 0 {
		return ""
	}
	b := p.board
	var lines []string
	if b.total == 0 && len(p.progress.bars) == 0 {
		lines = append(lines, p.st.Ink.Muted.Paint(look.Cell("no datagrams", w)))
	}
	lines = append(lines, progressLines(p.progress, max(h/3, 1), w, nil, p.st)...)
	if a := b.audio; a != nil {
		lines = append(lines, p.meter(a, w))
	}
	rawRows := min(len(b.raw), 3)
	for _, r := range b.raw[len(b.raw)-rawRows:] {
		text := fmt.Sprintf("%s ch 0x%02x #%d %s %s", look.ClockTime(r.at), r.ch, r.req, look.ByteSize(int64(r.size)), r.head)
		if r.err != "" {
			lines = append(lines, p.st.Ink.Error.Paint(look.Cell(text+" "+r.err, w)))
		} else {
			lines = append(lines, p.st.Ink.Warn.Paint(look.Cell("unknown "+text, w)))
		}
	}
	return strings.Join(look.PadLines(append(lines, p.logLines(w, h-len(lines))...), w, h), "\n")
}

// meter renders the audio level of the latest audio datagram.
func (p *datagramsPane) meter(a *audioLevel, w int) string {
	db := media.DBFS(a.rms)
	width := max(min(w-40, 40), 8)
	filled := int(float64(width) * min(max((db+60)/60, 0), 1))
	bar := strings.Repeat("▮", filled) + strings.Repeat("▯", width-filled)
	text := fmt.Sprintf("audio #%d ", a.req)
	return look.FitLine(text+p.st.Ink.Good.Paint(bar)+fmt.Sprintf(" %6.1f dBFS · audio datagrams: %d", db, a.frames), w)
}

// logLines renders up to n log lines ending p.back lines before the newest.
func (p *datagramsPane) logLines(w, n int) []string {
	logs := p.board.logs
	if n <= 0 || len(logs) == 0 {
		return nil
	}
	end := len(logs) - min(p.back, len(logs)-1)
	start := max(end-n, 0)
	out := make([]string, 0, end-start)
	for _, l := range logs[start:end] {
		lvl, ok := p.st.Ink.Level[strings.ToLower(l.level)]
		if !ok {
			lvl = p.st.Ink.Muted
		}
		head := p.st.Ink.Muted.Paint(look.ClockTime(l.at)) + " " + lvl.Paint(look.Cell(l.level, 7)) + " "
		rest := fmt.Sprintf("#%d %s %s", l.req, l.logger, l.text)
		out = append(out, head+look.Cell(rest, max(w-21, 1)))
	}
	return out
}
