package subsview

import (
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/ui/look"
)

// Render draws the body: the resources with their updates, or the answer
// of a re-read.
func (v *View) Render(w, h int) string {
	st := v.h.Styles()
	if v.read != "" {
		if v.out == nil {
			return strings.Join(look.FitBlock(st.Ink.Muted.Paint("resources/read "+look.OneLine(v.read)+" …"), w, h), "\n")
		}
		return strings.Join(look.FitBlock(v.out.Render(w, h), w, h), "\n")
	}
	list := v.b.Resources()
	if len(list) == 0 {
		return strings.Join(look.FitBlock(st.Ink.Muted.Paint(errNone.Error()), w, h), "\n")
	}
	head := fmt.Sprintf("%-6s %8s  %-12s  %-22s  %s", "", "updates", "last update", "via", "resource")
	lines := []string{look.FitLine(st.ColumnHeader.Render(look.FitLine(head, w)), w)}
	rows := max(h-1, 0)
	sel := v.sel
	start := max(min(sel-rows/2, len(list)-rows), 0)
	for i := start; i < min(start+rows, len(list)); i++ {
		row := v.row(list[i])
		if i == sel {
			row = st.Ink.SelFocused.Paint(look.FitLine(row, w))
		}
		lines = append(lines, look.FitLine(row, w))
	}
	if v.b.Untracked > 0 && len(lines) < h {
		lines = append(lines, look.FitLine(st.Ink.Warn.Paint(fmt.Sprintf("%d updates of further resources never subscribed (past %d) are not counted", v.b.Untracked, MaxUpdateOnly)), w))
	}
	return strings.Join(look.PadLines(lines, w, h), "\n")
}

// row renders one resource: whether it is live, its updates, the last
// one's time, how it was subscribed and its URI.
func (v *View) row(r *Resource) string {
	st := v.h.Styles()
	live := r.Live
	if _, err := v.h.Session(); err == nil {
		live = Subscribed(v.h, r.URI) // the live session knows best: a cancelled stream leaves no frame on HTTP
	}
	mark := st.Ink.Muted.Paint("○ off ")
	if live {
		mark = st.Ink.Good.Paint("● live")
	}
	last := "-"
	if !r.Last.IsZero() {
		last = r.Last.Format("15:04:05.000")
	}
	via := r.Via
	if via == "" {
		via = "(updates only)"
	}
	return fmt.Sprintf("%s %8d  %-12s  %-22s  %s", mark, r.Updates, last, via, look.OneLine(r.URI))
}
