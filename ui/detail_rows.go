package ui

import (
	"sort"
	"strings"

	"github.com/mcpscope/mcpscope/ui/look"
)

// maxPaintLine is the longest line the detail pane colours; a longer one
// (a long string value, a value nested past the indenter's depth limit) is
// shown plain, so that a render costs what the rows in view hold.
const maxPaintLine = 4 << 10

// rowBlock is a part of the detail pane's content, already cut to the
// pane's width: it says how many rows it has and renders only the rows
// asked for, so that scrolling a large body costs the rows shown, not the
// body.
type rowBlock interface {
	rowCount() int
	rows(from, n int) []string
}

// fixedRows are a few rows built once (metadata, a note, a small hex dump).
type fixedRows []string

// splitRows cuts text into fixed rows at its line breaks.
func splitRows(text string) fixedRows { return strings.Split(text, "\n") }

func (r fixedRows) rowCount() int { return len(r) }

func (r fixedRows) rows(from, n int) []string {
	from = min(max(from, 0), len(r))
	return r[from:min(from+max(n, 0), len(r))]
}

// textRows is text wrapped to a width. Only the rows asked for are cut
// and coloured: a line of printable ASCII is cut by slicing, and only a
// line with other characters that is too wide is wrapped when laid out.
type textRows struct {
	lines []string                  // the text's lines, plain
	first []int                     // first[i] is the row where line i starts
	total int                       // rows in all
	cut   map[int][]string          // rows of the wide lines that are not plain ASCII
	w     int                       // width the rows are wrapped to
	paint func(lines string) string // colours some whole lines; nil: plain
	hang  bool                      // a wrapped line goes on under its own indentation (JSON)
}

// newTextRows lays out plain text (no escape sequences, already made safe
// for the terminal) in rows of w columns; paint, when set, colours the
// lines in view.
func newTextRows(text string, w int, paint func(string) string) *textRows {
	return layTextRows(text, w, paint, false)
}

// newIndentedRows is newTextRows for indented text (pretty JSON): a
// wrapped line goes on under its own indentation, not at column 0.
func newIndentedRows(text string, w int, paint func(string) string) *textRows {
	return layTextRows(text, w, paint, true)
}

// layTextRows lays text out for newTextRows and newIndentedRows.
func layTextRows(text string, w int, paint func(string) string, hang bool) *textRows {
	text = look.ExpandTabs(text) // tabs keep their columns: stops of 8
	t := &textRows{lines: strings.Split(text, "\n"), w: max(w, 1), paint: paint, hang: hang}
	t.first = make([]int, len(t.lines))
	for i, l := range t.lines {
		t.first[i] = t.total
		switch {
		case printableASCII(l):
			t.total += asciiRows(len(l), t.w, t.hangOf(l))
		case look.TextWidth(l) <= t.w:
			t.total++
		default:
			if t.cut == nil {
				t.cut = make(map[int][]string)
			}
			t.cut[i] = look.WrapHanging(l, t.w, t.hangOf(l))
			t.total += len(t.cut[i])
		}
	}
	return t
}

// hangOf is the indentation the rows after a line's first go on under:
// its leading spaces when the text hangs and they leave room, else 0.
func (t *textRows) hangOf(l string) int {
	if !t.hang {
		return 0
	}
	n := len(l) - len(strings.TrimLeft(l, " "))
	if n > t.w/2 {
		return 0
	}
	return n
}

// asciiRows is how many rows a line of n printable ASCII bytes takes in
// w columns, the rows after the first indented by hang.
func asciiRows(n, w, hang int) int {
	if n <= w {
		return 1
	}
	if hang == 0 {
		return (n + w - 1) / w
	}
	return 1 + (n-w+w-hang-1)/(w-hang)
}

// printableASCII reports whether s holds only printable ASCII, one column
// a byte.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

func (t *textRows) rowCount() int { return t.total }

// rowsEnd is the row after the last row of line i.
func (t *textRows) rowsEnd(i int) int {
	if i+1 < len(t.first) {
		return t.first[i+1]
	}
	return t.total
}

// plainRows appends the rows of line i that fall in from…end-1, plain.
func (t *textRows) plainRows(out []string, i, from, end int) []string {
	lo, hi := max(from, t.first[i])-t.first[i], min(end, t.rowsEnd(i))-t.first[i]
	l := t.lines[i]
	switch rows, ok := t.cut[i]; {
	case ok:
		return append(out, rows[lo:hi]...)
	case !printableASCII(l):
		return append(out, l)
	}
	h := t.hangOf(l)
	if h == 0 || len(l) <= t.w {
		for r := lo; r < hi; r++ {
			out = append(out, l[min(r*t.w, len(l)):min((r+1)*t.w, len(l))])
		}
		return out
	}
	indent := strings.Repeat(" ", h)
	for r := lo; r < hi; r++ {
		if r == 0 {
			out = append(out, l[:t.w])
			continue
		}
		from := t.w + (r-1)*(t.w-h)
		out = append(out, indent+l[min(from, len(l)):min(from+t.w-h, len(l))])
	}
	return out
}

// rows renders rows from…from+n-1, coloured when paint is set (a line over
// maxPaintLine stays plain).
func (t *textRows) rows(from, n int) []string {
	from = min(max(from, 0), t.total)
	end := min(from+max(n, 0), t.total)
	if from == end {
		return nil
	}
	out := make([]string, 0, end-from)
	lo := sort.SearchInts(t.first, from+1) - 1 // the line holding row from
	hi := sort.SearchInts(t.first, end)        // lines lo…hi-1 hold the rows
	for lo < hi {
		run := lo // lines lo…run-1 are short enough to colour
		for t.paint != nil && run < hi && len(t.lines[run]) <= maxPaintLine {
			run++
		}
		if run == lo {
			out = t.plainRows(out, lo, from, end)
			lo++
			continue
		}
		out = t.painted(out, lo, run, from, end)
		lo = run
	}
	return out
}

// painted colours lines lo…hi-1 together and appends their rows that fall
// in from…end-1; plain rows when colouring changed how they wrap.
func (t *textRows) painted(out []string, lo, hi, from, end int) []string {
	lines := strings.Split(t.paint(strings.Join(t.lines[lo:hi], "\n")), "\n")
	if len(lines) != hi-lo {
		lines = nil
	}
	for i := lo; i < hi; i++ {
		var rows []string
		if lines != nil {
			rows = look.WrapHanging(lines[i-lo], t.w, t.hangOf(t.lines[i]))
		}
		if len(rows) != t.rowsEnd(i)-t.first[i] {
			out = t.plainRows(out, i, from, end)
			continue
		}
		out = append(out, rows[max(from, t.first[i])-t.first[i]:min(end, t.rowsEnd(i))-t.first[i]]...)
	}
	return out
}

// stackedRows are blocks one under the other.
type stackedRows []rowBlock

func (s stackedRows) rowCount() int {
	n := 0
	for _, b := range s {
		n += b.rowCount()
	}
	return n
}

func (s stackedRows) rows(from, n int) []string {
	var out []string
	for _, b := range s {
		c := b.rowCount()
		if from < c && n > 0 {
			got := b.rows(max(from, 0), n)
			out = append(out, got...)
			n -= len(got)
		}
		from -= c
	}
	return out
}

// besideRows puts two blocks side by side, lw and rw columns wide, with a
// rule between them.
type besideRows struct {
	left, right rowBlock
	lw          int
}

func (b besideRows) rowCount() int { return max(b.left.rowCount(), b.right.rowCount()) }

func (b besideRows) rows(from, n int) []string {
	l, r := b.left.rows(from, n), b.right.rows(from, n)
	return look.ZipRows(l, r, max(len(l), len(r)), func(ls, rs string) string { return look.FitLine(ls, b.lw) + " │ " + rs })
}
