package findingsview

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/client/findings"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/ui/look"
)

// row is one line of the view: a group's heading or one finding.
type row struct {
	head  bool
	group string // severity and code
	sev   findings.Severity
	code  string
	count int              // a heading: the group's findings
	f     findings.Finding // a finding
}

// meanings are the codes' one-line meanings, by id.
var meanings = func() map[string]string {
	m := map[string]string{}
	for _, c := range findings.Codes() {
		m[c.ID] = c.Meaning
	}
	return m
}()

// refresh rebuilds the rows when the book found more since they were
// built: the worst severity first, then by code, each group's findings in
// frame order; a folded group shows only its heading.
func (v *View) refresh() {
	if v.version == v.b.version {
		return
	}
	v.version = v.b.version
	all := slices.Clone(v.b.Findings())
	slices.SortStableFunc(all, func(a, b findings.Finding) int {
		return cmp.Or(cmp.Compare(b.Severity, a.Severity), cmp.Compare(a.Code, b.Code), cmp.Compare(a.Seq, b.Seq))
	})
	v.rows = v.rows[:0]
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].Severity == all[i].Severity && all[j].Code == all[i].Code {
			j++
		}
		g := all[i].Severity.String() + " " + all[i].Code
		v.rows = append(v.rows, row{head: true, group: g, sev: all[i].Severity, code: all[i].Code, count: j - i})
		if !v.folded[g] {
			for _, f := range all[i:j] {
				v.rows = append(v.rows, row{group: g, sev: f.Severity, code: f.Code, f: f})
			}
		}
		i = j
	}
	v.sel = min(max(v.sel, 0), max(len(v.rows)-1, 0))
}

// Render draws the body: a summary line, then the rows in view.
func (v *View) Render(w, h int) string {
	v.refresh()
	st := v.h.Styles()
	lines := []string{v.summary()}
	if len(v.rows) == 0 {
		lines = append(lines, st.Ink.Muted.Paint("no findings: nothing mcpscope checks departs from the spec so far"))
		return strings.Join(look.PadLines(lines, w, h), "\n")
	}
	rows := max(h-1, 1)
	switch {
	case v.sel < v.top:
		v.top = v.sel
	case v.sel >= v.top+rows:
		v.top = v.sel - rows + 1
	}
	for i := v.top; i < len(v.rows) && i < v.top+rows; i++ {
		lines = append(lines, v.line(v.rows[i], i == v.sel, w))
	}
	return strings.Join(look.PadLines(lines, w, h), "\n")
}

// summary counts the findings by severity, and those not kept.
func (v *View) summary() string {
	var parts []string
	for s := findings.Error; s >= findings.Note; s-- {
		if n := v.b.Count(s); n > 0 {
			parts = append(parts, plural.Count(n, s.String(), s.String()+"s"))
		}
	}
	if v.b.dropped > 0 {
		parts = append(parts, fmt.Sprintf("%d not kept", v.b.dropped))
	}
	if len(parts) == 0 {
		return "0 findings"
	}
	return strings.Join(parts, " · ")
}

// line draws one row w wide: a heading "▾ error    stdout-not-json   3
// meaning", a finding "    frame 12  summary"; the selected row marked.
func (v *View) line(r row, selected bool, w int) string {
	st := v.h.Styles()
	var s string
	if r.head {
		fold := "▾"
		if v.folded[r.group] {
			fold = "▸"
		}
		sev := look.Cell(r.sev.String(), 8)
		switch r.sev {
		case findings.Error:
			sev = st.Ink.Error.Paint(sev)
		case findings.Warning:
			sev = st.Ink.Warn.Paint(sev)
		default:
			sev = st.Ink.Muted.Paint(sev)
		}
		s = fmt.Sprintf("%s %s %s %s  %s", fold, sev, look.Cell(r.code, 32), look.CellRight(fmt.Sprint(r.count), 5), st.Ink.Muted.Paint(meanings[r.code]))
	} else {
		s = fmt.Sprintf("    %s  %s", st.Ink.Muted.Paint(look.Cell(fmt.Sprintf("frame %d", r.f.Seq), 12)), r.f.Summary)
	}
	s = look.FitLine(s, w)
	if selected { // painted whole, as the traffic pane paints its selection
		s = st.Ink.SelFocused.Paint(ansi.Strip(s))
	}
	return s
}
