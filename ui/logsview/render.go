package logsview

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/jsonindent"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/ui/look"
)

// Render draws the body: a header, the logger filter while it is typed,
// the lines (or the whole data of one).
func (v *View) Render(w, h int) string {
	st := v.h.Styles()
	lines := []string{look.FitLine(st.Ink.Muted.Paint(v.header()), w)}
	if s, err := v.h.Session(); err == nil && s.Era() == client.EraModern {
		lines = append(lines, look.FitLine(st.Ink.Warn.Paint("deprecated: "+Deprecated), w))
	}
	if v.typing || v.logger.Value() != "" {
		lines = append(lines, look.FitLine(v.logger.View(), w))
	}
	rows := max(h-len(lines), 0)
	if v.detail {
		body := v.detailLines()
		top := min(v.detailTop, max(len(body)-1, 0))
		for _, l := range body[top:min(top+rows, len(body))] {
			lines = append(lines, look.FitLine(l, w))
		}
		return strings.Join(look.PadLines(lines, w, h), "\n")
	}
	shown := v.visible()
	if len(shown) == 0 {
		lines = append(lines, look.FitLine(st.Ink.Muted.Paint(v.empty()), w))
		return strings.Join(look.PadLines(lines, w, h), "\n")
	}
	cur, present := v.cursor(shown)
	start := max(min(cur-rows/2, len(shown)-rows), 0)
	if v.follow {
		start = max(len(shown)-rows, 0)
	}
	for i := start; i < min(start+rows, len(shown)); i++ {
		row := v.row(v.b.At(shown[i]), w)
		if i == cur && (present || v.follow) {
			row = st.Ink.SelFocused.Paint(look.FitLine(row, w))
		}
		lines = append(lines, look.FitLine(row, w))
	}
	return strings.Join(look.PadLines(lines, w, h), "\n")
}

// header says what the view holds and what filters it.
func (v *View) header() string {
	s := fmt.Sprintf("%d lines", v.b.Len())
	if dropped := v.b.Total() - uint64(v.b.Len()); dropped > 0 {
		s += fmt.Sprintf(" (%d older dropped)", dropped)
	}
	s += " · level ≥ " + Levels[v.min]
	if f := v.logger.Value(); f != "" && !v.typing {
		s += " · logger ~ " + termtext.OneLine(f)
	}
	if sess, err := v.h.Session(); err == nil && sess.LogLevel() != "" {
		s += " · asked the server for " + sess.LogLevel()
	}
	return s
}

// empty says why no line shows.
func (v *View) empty() string {
	if v.b.Len() == 0 {
		return "no log message yet: v asks the server for messages at the level shown (+/- change it)"
	}
	return "no log message passes the filters (+/- change the level, / the logger)"
}

// row renders one line: time, level, logger and the data on one line.
func (v *View) row(l Line, w int) string {
	st := v.h.Styles()
	level := termtext.OneLine(l.Level)
	tint, ok := st.Ink.Level[l.Level]
	if !ok {
		tint = st.Ink.Accent
	}
	s := st.Ink.Muted.Paint(l.Time.Format("15:04:05.000")) + " " + tint.Paint(fmt.Sprintf("%-9s", level))
	if l.Flow {
		s += st.Ink.Muted.Paint("datagram ")
	}
	if l.Logger != "" {
		s += "[" + termtext.OneLine(l.Logger) + "] "
	}
	return s + termtext.Ellipsis(termtext.OneLine(dataText(l.Data)), max(w, 1))
}

// dataText is data as one reads it: a string as its text, any other value
// as its JSON.
func dataText(data json.RawMessage) string {
	var s string
	if json.Unmarshal(data, &s) == nil {
		return s
	}
	return string(data)
}

// detailLines is the whole data of the selected line, pretty-printed.
func (v *View) detailLines() []string {
	l, ok := v.selected()
	if !ok {
		return nil
	}
	head := fmt.Sprintf("%s %s", l.Time.Format("2006-01-02 15:04:05.000"), termtext.OneLine(l.Level))
	if l.Logger != "" {
		head += " [" + termtext.OneLine(l.Logger) + "]"
	}
	var body string
	var s string
	if json.Unmarshal(l.Data, &s) == nil {
		body = termtext.Block(s)
	} else if out, err := jsonindent.Indent(l.Data, jsonindent.DefaultMaxDepth); err == nil {
		body = string(termtext.JSON(out))
	} else {
		body = termtext.Block(string(l.Data))
	}
	if l.Cut {
		body += fmt.Sprintf("\n… cut after %d bytes", maxData)
	}
	return append([]string{head, ""}, strings.Split(body, "\n")...)
}
