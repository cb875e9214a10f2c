package ui

import (
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"
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

// textRows is text wrapped to a width. The wrapping is done once; colour
// (paint) is applied when rows are rendered, to the lines in view only.
type textRows struct {
	lines   []string                  // the text's lines, plain
	wrapped []string                  // every row, plain
	first   []int                     // first[i] is the row where line i starts
	w       int                       // width the rows are wrapped to
	paint   func(lines string) string // colours some whole lines; nil: plain
}

// newTextRows wraps plain text (no escape sequences, already made safe for
// the terminal) to w columns; paint, when set, colours the lines in view.
func newTextRows(text string, w int, paint func(string) string) *textRows {
	t := &textRows{lines: strings.Split(text, "\n"), w: max(w, 1), paint: paint}
	t.first = make([]int, len(t.lines))
	t.wrapped = make([]string, 0, len(t.lines))
	for i, l := range t.lines {
		t.first[i] = len(t.wrapped)
		if textWidth(l) <= t.w {
			t.wrapped = append(t.wrapped, l)
			continue
		}
		t.wrapped = append(t.wrapped, strings.Split(ansi.Hardwrap(l, t.w, true), "\n")...)
	}
	return t
}

func (t *textRows) rowCount() int { return len(t.wrapped) }

// rows renders rows from…from+n-1: the plain rows, or when paint is set the
// coloured rows of the lines they belong to (lines over maxPaintLine stay
// plain).
func (t *textRows) rows(from, n int) []string {
	from = min(max(from, 0), len(t.wrapped))
	end := min(from+max(n, 0), len(t.wrapped))
	if t.paint == nil || from == end {
		return t.wrapped[from:end]
	}
	out := make([]string, 0, end-from)
	lo := sort.SearchInts(t.first, from+1) - 1 // the line holding row from
	hi := sort.SearchInts(t.first, end)        // lines lo…hi-1 hold the rows
	for lo < hi {
		run := lo // lines lo…run-1 are short enough to colour
		for run < hi && len(t.lines[run]) <= maxPaintLine {
			run++
		}
		if run == lo { // one long line, plain
			out = append(out, t.wrapped[max(t.first[lo], from):min(t.rowsEnd(lo), end)]...)
			lo++
			continue
		}
		out = append(out, t.painted(lo, run, from, end)...)
		lo = run
	}
	if len(out) != end-from {
		return t.wrapped[from:end]
	}
	return out
}

// rowsEnd is the row after the last row of line i.
func (t *textRows) rowsEnd(i int) int {
	if i+1 < len(t.first) {
		return t.first[i+1]
	}
	return len(t.wrapped)
}

// painted colours lines lo…hi-1 together and returns their rows that fall
// in from…end-1; the plain rows when colouring changed the line count.
func (t *textRows) painted(lo, hi, from, end int) []string {
	plain := t.wrapped[max(t.first[lo], from):min(t.rowsEnd(hi-1), end)]
	lines := strings.Split(t.paint(strings.Join(t.lines[lo:hi], "\n")), "\n")
	if len(lines) != hi-lo {
		return plain
	}
	out := make([]string, 0, len(plain))
	for i, p := range lines {
		row := t.first[lo+i]
		for _, r := range strings.Split(ansi.Hardwrap(p, t.w, true), "\n") {
			if row >= from && row < end {
				out = append(out, r)
			}
			row++
		}
	}
	if len(out) != len(plain) {
		return plain
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
	return zipRows(l, r, max(len(l), len(r)), func(ls, rs string) string { return fitLine(ls, b.lw) + " │ " + rs })
}

// zipRows joins the i-th rows of left and right for i < n; a side that
// has no i-th row gives "".
func zipRows(left, right []string, n int, join func(l, r string) string) []string {
	out := make([]string, n)
	for i := range out {
		var l, r string
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out[i] = join(l, r)
	}
	return out
}
