package explore

import (
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/client/skills"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/ui/look"
)

// renderSkill draws the open skill in w×h: its name and description, its
// files (uri, size, digest and, once verified, each one's state), the
// verification's outcome, and the file read, scrolled.
func (x *Explorer) renderSkill(w, h int) []string {
	v, st := x.skill, x.st
	e := v.e
	head := look.OneLine(e.name) + " · " + look.OneLine(e.detail())
	if e.desc != "" {
		head += " · " + look.OneLine(e.desc)
	}
	lines := []string{look.FitLine(head, w)}
	lines = append(lines, x.skillStatus(w))
	what := "files as skills/list lists them · enter reads one · v verifies the skill · d its directory"
	if v.dir {
		what = "the skill's directory (resources/directory/read)"
	}
	lines = append(lines, st.Ink.Muted.Paint(look.FitLine(what, w)))
	rows := len(v.files)
	if v.shown != "" {
		rows = min(rows, max((h-3)/3, 1))
	}
	rows = min(rows, max(h-len(lines), 0))
	first := max(0, min(v.cur-rows+1, len(v.files)-rows))
	uriW := 0
	for _, f := range v.files {
		uriW = max(uriW, look.TextWidth(f.uri))
	}
	uriW = min(uriW, max(w*3/5, 20))
	for i := first; i < first+rows; i++ {
		f := v.files[i]
		cells := look.Cell(f.uri, uriW) + "  " + look.Cell(f.size, 9) + "  " + f.digest
		if f.mime != "" {
			cells = look.Cell(f.uri, uriW) + "  " + f.mime
		}
		if f.state != "" {
			cells = look.Cell(f.uri, uriW) + "  " + look.Cell(f.size, 9) + "  " + f.state
			if f.reason != "" {
				cells += ": " + f.reason
			}
		}
		cells = look.FitLine(look.OneLine(cells), max(w-2, 1))
		switch {
		case i == v.cur:
			lines = append(lines, st.Ink.SelFocused.Paint("› "+cells))
		case f.state == skills.FileFailed:
			lines = append(lines, "  "+st.Ink.Error.Paint(cells))
		default:
			lines = append(lines, "  "+cells)
		}
	}
	if v.shown == "" || len(lines) >= h {
		return lines
	}
	lines = append(lines, st.Ink.Accent.Paint(look.FitLine("── "+look.OneLine(v.shown)+" ──", w)))
	text := strings.Split(strings.TrimRight(termtext.Block(v.text), "\n"), "\n")
	v.scroll = min(v.scroll, max(len(text)-1, 0))
	for _, l := range text[v.scroll:] {
		if len(lines) >= h {
			break
		}
		lines = append(lines, look.FitLine(l, w))
	}
	return lines
}

// skillStatus is the line saying what is under way, what failed, or how
// the verification ended.
func (x *Explorer) skillStatus(w int) string {
	v, st := x.skill, x.st
	switch {
	case v.busy != "":
		return st.Ink.Muted.Paint(look.FitLine(look.OneLine(v.busy)+"…", w))
	case v.err != nil:
		return st.Ink.Error.Paint(look.FitLine(look.OneLine(look.ErrorHeadline(v.err, x.d.Dialect())), w))
	case v.report == nil:
		return ""
	}
	r := v.report
	text := string(r.Outcome)
	if r.Reason != "" {
		text += ": " + r.Reason
	}
	if r.File != "" && r.Outcome != skills.Verified {
		text += fmt.Sprintf(" (%s)", r.File)
	}
	text = look.FitLine(look.OneLine(text), w)
	switch r.Outcome {
	case skills.Verified:
		return st.Ink.Good.Paint(text)
	case skills.Failed:
		return st.Ink.Error.Paint(text)
	}
	return st.Ink.Warn.Paint(text)
}
