package explore

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/ui/look"
)

// previewMinWidth is the explorer width from which the lists share it
// with a preview of the selected entry.
const previewMinWidth = 90

// previewCache keeps the preview lines of one entry, as it was, at one
// width.
type previewCache struct {
	e     *entry
	run   toolRun
	w     int
	lines []string
}

// withPreview lays the list rows out beside the preview of the selected
// entry when the explorer is wide enough; else it returns the rows alone.
func (x *Explorer) withPreview(w, h int) []string {
	if w < previewMinWidth {
		return x.list().render(w, h, x.st, false)
	}
	lw := w * 11 / 20
	pw := w - lw - 1
	rows := x.list().render(lw, h, x.st, true)
	var side []string
	if e, ok := x.list().selected(); ok {
		side = x.preview(e, pw)
	}
	sep := x.st.Ink.Muted.Paint("│")
	return look.ZipRows(rows, side, h, func(l, r string) string { return look.FitLine(l, lw) + sep + r })
}

// preview is what the selected entry is, in lines of width w: its
// description wrapped at words, then what a call needs — a tool's input
// schema, a resource's URI and type, a template's URI template, a
// prompt's arguments. Server text is made safe to print.
func (x *Explorer) preview(e *entry, w int) []string {
	if c := x.previewed; c.e == e && c.run == e.run && c.w == w {
		return c.lines
	}
	var b strings.Builder
	head := func(s string) { b.WriteString(x.st.Ink.Accent.Paint("── "+s+" ──") + "\n") }
	switch {
	case e.bad != "":
		b.WriteString(x.st.Ink.Error.Paint(termtext.Block(e.bad)) + "\n")
	case e.desc != "":
		b.WriteString(termtext.Block(e.desc) + "\n")
	default:
		b.WriteString(x.st.Ink.Muted.Paint("no description") + "\n")
	}
	switch e.tab {
	case tabTools:
		if d := e.detail(); d != "" {
			b.WriteString(x.st.Ink.Muted.Paint(termtext.Line(d)) + "\n")
		}
		b.WriteString(x.headerWarning(e))
		b.WriteString(x.appLine(e))
		head("input schema")
		if len(e.schema) == 0 {
			b.WriteString(x.st.Ink.Muted.Paint("none: the call takes any arguments") + "\n")
		} else {
			b.WriteString(look.PrettyHighlighted(e.schema, x.st) + "\n")
		}
	case tabResources, tabTemplates:
		head("uri")
		b.WriteString(termtext.Line(e.uri) + "\n")
		if e.mime != "" {
			b.WriteString(x.st.Ink.Muted.Paint("type "+termtext.Line(e.mime)) + "\n")
		}
		b.WriteString(x.appUILines(e))
	case tabPrompts:
		head("arguments")
		if len(e.args) == 0 {
			b.WriteString(x.st.Ink.Muted.Paint("none") + "\n")
		}
		for _, a := range e.args {
			name := termtext.Line(a.Name)
			if a.Required {
				name += " *"
			}
			b.WriteString(name + x.st.Ink.Muted.Paint("  "+termtext.Line(a.Description)) + "\n")
		}
	case tabSkills:
		head("files")
		if e.skill.Resources.Dynamic {
			b.WriteString(x.st.Ink.Muted.Paint("dynamic: the server does not list them; enter, then d lists the directory") + "\n")
		}
		for _, f := range skillRows(*e) {
			b.WriteString(termtext.Line(f.uri) + x.st.Ink.Muted.Paint("  "+f.size) + "\n")
		}
	}
	lines := strings.Split(strings.TrimRight(ansi.Wrap(b.String(), max(w, 1), " ,"), "\n"), "\n")
	x.previewed = previewCache{e: e, run: e.run, w: w, lines: lines}
	return lines
}
