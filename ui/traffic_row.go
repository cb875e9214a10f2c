package ui

import (
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/ui/look"
)

// columns are the widths of the traffic pane's columns for one pane width;
// latency and encoding are left out on narrow panes.
type columns struct {
	label         int
	latency, enc  int
	time, id, dir int
	size          int
}

// trafficColumns lays the columns out in w columns.
func trafficColumns(w int) columns {
	c := columns{time: 12, dir: 1, id: 6, size: 9, latency: 7, enc: 6}
	if w < 72 {
		c.latency, c.enc = 0, 0
	}
	fixed := c.time + 1 + c.dir + 1 + c.id + 1 + 1 + c.size
	if c.latency > 0 {
		fixed += c.latency + 1 + c.enc + 1
	}
	c.label = max(w-fixed, 8)
	return c
}

// header renders the column titles.
func (c columns) header() string {
	return c.join("time", " ", "id", "message", "latency", "enc", "size")
}

// join lays out one row of plain cells.
func (c columns) join(tm, dir, id, label, latency, enc, size string) string {
	return look.Cell(tm, c.time) + " " + look.Cell(dir, c.dir) + " " + c.tail(id, label, latency, enc, size)
}

// tail lays out the cells after the time and the direction.
func (c columns) tail(id, label, latency, enc, size string) string {
	var b strings.Builder
	b.WriteString(look.CellRight(id, c.id))
	b.WriteByte(' ')
	b.WriteString(look.Cell(label, c.label))
	b.WriteByte(' ')
	if c.latency > 0 {
		b.WriteString(look.CellRight(latency, c.latency))
		b.WriteByte(' ')
		b.WriteString(look.Cell(enc, c.enc))
		b.WriteByte(' ')
	}
	b.WriteString(look.CellRight(size, c.size))
	return b.String()
}

// row renders one frame. An error row is painted in the error colour; the
// selected row is painted whole.
func (p *trafficPane) row(f *capture.Frame, c columns, focused bool) string {
	label, bad := frameLabel(f, p.x, p.dialect)
	var latency string
	if d, ok := p.x.latency(f); ok {
		latency = look.Duration(d)
	}
	arrow := "→"
	if f.Dir == capture.In {
		arrow = "←"
	}
	tail := c.tail(frameID(f), label, latency, f.Enc.String(), look.ByteSize(int64(f.Size)))
	if f.Seq == p.sel || bad {
		text := look.Cell(look.ClockTime(f.Time), c.time) + " " + arrow + " " + tail
		switch {
		case f.Seq != p.sel:
			return p.st.Ink.Error.Paint(text)
		case focused:
			return p.st.Ink.SelFocused.Paint(text)
		case bad:
			return p.st.Ink.SelError.Paint(text)
		}
		return p.st.Ink.SelBlurred.Paint(text)
	}
	dirTint := p.st.Ink.Out
	if f.Dir == capture.In {
		dirTint = p.st.Ink.In
	}
	return p.st.Ink.Muted.Paint(look.Cell(look.ClockTime(f.Time), c.time)) + " " + dirTint.Paint(arrow) + " " + tail
}

// frameLabel says what a frame is: the method of a request or
// notification (with the method of its call for progress), "result" or
// the error (code, message and its name in the dialect) of a response
// with the method of its call, a decode error, or
// the channel of a stream chunk, datagram or stderr line. bad is true for
// errors.
func frameLabel(f *capture.Frame, x *index, d proto.Dialect) (label string, bad bool) {
	switch {
	case f.Err != nil && f.Dir == capture.Out:
		// mcpscope decodes nothing it sends: the frame is a failed write.
		return "write failed: " + f.Err.Error(), true
	case f.Err != nil:
		return "decode error: " + f.Err.Error(), true
	}
	call := ""
	if c, ok := x.lookup(f); ok {
		call = c.method
	}
	switch f.Chan.Kind {
	case capture.Stream:
		what := "chunk"
		if len(bodyOf(f)) == 0 {
			what = "header"
		}
		return joinNonEmpty(fmt.Sprintf("stream %d/%d %s", f.Chan.ReqID, f.Chan.Tag, what), call), false
	case capture.Datagram:
		return joinNonEmpty("datagram "+proto.DatagramChannel(f.Chan.Ch).String(), call), false
	case capture.Stderr:
		return "stderr " + string(bodyOf(f)), false
	case capture.HTTP:
		line, _, _ := strings.Cut(string(f.Raw), "\n")
		return "http " + line, false
	}
	m := f.Msg
	if m == nil {
		return "batch", false
	}
	switch m.Kind() {
	case proto.KindRequest:
		if m.Method == proto.MethodDiscover {
			return m.Method + " (probe for a 2026-07-28 server)", false
		}
		if call != "" {
			return call, false
		}
		return m.Method, false
	case proto.KindNotification:
		if id, ok := cancelledID(f); ok {
			return fmt.Sprintf("%s (request %s)", m.Method, id), false
		}
		return joinNonEmpty(m.Method, call), false
	case proto.KindResult:
		return joinNonEmpty("result", call), false
	case proto.KindError:
		if call == proto.MethodDiscover {
			return probeAnswer(m.Error, d), false
		}
		return joinNonEmpty(errorText(m.Error, d), call), true
	}
	return "invalid message", true
}

// errorText renders an error object: the raw code and message always, and
// the dialect's name for the code beside them when it has one.
func errorText(e *proto.Error, d proto.Dialect) string {
	s := fmt.Sprintf("error %d %s", e.Code, e.Message)
	if name := proto.ErrorName(d, e.Code); name != "" && !strings.EqualFold(name, e.Message) {
		s += " [" + name + "]"
	}
	return s
}

// probeAnswer reads an error answering the server/discover probe as what
// it is: an older server saying it does not know the method, after which
// the session opens with the legacy initialize handshake.
func probeAnswer(e *proto.Error, d proto.Dialect) string {
	return "probe answered " + errorText(e, d) + " → legacy handshake"
}

// joinNonEmpty joins a and b with " · ", leaving out an empty b.
func joinNonEmpty(a, b string) string {
	if b == "" {
		return a
	}
	return a + " · " + b
}
