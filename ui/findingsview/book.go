package findingsview

import (
	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client/findings"
)

// maxKept is how many findings a book keeps; past it they are counted,
// their frames still marked while the marks hold.
const maxKept = 10_000

// maxMarked is how many frames a book remembers the findings of, for the
// traffic's marks and filter.
const maxMarked = 50_000

// Book is what the UI's index learns for the view from the capture, one
// frame at a time, whether the view is open or not: the findings of every
// frame (client/findings), counted by severity. Its memory is bounded.
type Book struct {
	d       *findings.Detector
	kept    []findings.Finding
	counts  [findings.Error + 1]int // every finding seen, by severity
	dropped int                     // findings counted, not kept
	marks   map[uint64]mark         // by frame Seq
	order   []uint64                // marked frames, oldest first (a ring once full)
	next    int
	version int // bumped by every finding: the view re-sorts on change
}

// mark is what a book remembers of one frame's findings.
type mark struct {
	worst findings.Severity
	sevs  uint8 // a bit per severity found in the frame
}

// NewBook returns an empty book.
func NewBook() *Book { return &Book{d: findings.NewDetector(), marks: map[uint64]mark{}} }

// Note reads one captured frame, in capture order.
func (b *Book) Note(f *capture.Frame) {
	for _, x := range b.d.Note(f) {
		b.add(x)
	}
}

// Missed tells the book that frames went unread (the index fell behind,
// the capture dropped them, an attach joined late): answers to requests
// it did not see are then not taken for errors.
func (b *Book) Missed() { b.d.Missed() }

// add records one finding.
func (b *Book) add(x findings.Finding) {
	b.version++
	if x.Severity >= findings.Note && x.Severity <= findings.Error {
		b.counts[x.Severity]++
	}
	if len(b.kept) < maxKept {
		b.kept = append(b.kept, x)
	} else {
		b.dropped++
	}
	m, seen := b.marks[x.Seq]
	if !seen {
		b.remember(x.Seq)
		m.worst = x.Severity
	}
	m.worst = max(m.worst, x.Severity)
	m.sevs |= 1 << uint(x.Severity)
	b.marks[x.Seq] = m
}

// remember makes room for the mark of seq, forgetting the oldest past
// maxMarked.
func (b *Book) remember(seq uint64) {
	if len(b.order) < maxMarked {
		b.order = append(b.order, seq)
		return
	}
	delete(b.marks, b.order[b.next])
	b.order[b.next] = seq
	b.next = (b.next + 1) % maxMarked
}

// Findings returns the findings kept, in the order found. The slice is
// the book's: callers do not modify it.
func (b *Book) Findings() []findings.Finding { return b.kept }

// Count is how many findings of severity s were found.
func (b *Book) Count(s findings.Severity) int {
	if s < findings.Note || s > findings.Error {
		return 0
	}
	return b.counts[s]
}

// Worst returns the highest severity found and how many findings have it;
// n is 0 when nothing was found.
func (b *Book) Worst() (s findings.Severity, n int) {
	for s := findings.Error; s >= findings.Note; s-- {
		if b.counts[s] > 0 {
			return s, b.counts[s]
		}
	}
	return findings.Note, 0
}

// Frame reports the worst severity of the findings of the frame seq, and
// whether it has any.
func (b *Book) Frame(seq uint64) (findings.Severity, bool) {
	m, ok := b.marks[seq]
	return m.worst, ok
}

// FrameHas reports whether the frame seq has a finding of severity s.
func (b *Book) FrameHas(seq uint64, s findings.Severity) bool {
	m, ok := b.marks[seq]
	return ok && m.sevs&(1<<uint(s)) != 0
}
