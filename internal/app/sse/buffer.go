package sse

import (
	"bytes"
	"errors"
	"io"
)

// Buffer sizes.
const (
	// firstRead is what a Reader's first Read asks for, and its first
	// buffer's size: most answers are one small event, and a Reader is
	// made for each.
	firstRead = 4 << 10
	// readSize is the most one Read asks for: the size of a Read doubles
	// from firstRead each time the source fills it.
	readSize = 64 << 10
	// minFree is the room below which buf is compacted before a read.
	minFree = 16 << 10
	// roomySize is the size up to which buf grows to keep the bytes it must
	// keep under a quarter of it, so that compaction stays cheap; past it,
	// buf grows only as far as an event or a line needs.
	roomySize = 1 << 20
	// maxEmptyReads is how many reads in a row may return nothing before
	// the Reader gives up with io.ErrNoProgress, as bufio does.
	maxEmptyReads = 100
)

// bom is the UTF-8 byte order mark a stream may start with.
var bom = []byte("\xEF\xBB\xBF")

// errBadCount is a source that said it read more than it was given.
var errBadCount = errors.New("sse: the source returned an invalid count")

// skipBOM skips one leading UTF-8 byte order mark.
func (r *Reader) skipBOM() {
	for r.end < len(bom) && bytes.HasPrefix(bom, r.buf[:r.end]) && r.srcErr == nil {
		r.fill()
	}
	r.bomDone = true
	if bytes.HasPrefix(r.buf[:r.end], bom) {
		r.pos = len(bom)
		r.skip(bom)
	}
}

// fill reads once from the source into buf, after making room.
func (r *Reader) fill() {
	r.spill()
	if len(r.buf)-r.end < min(r.step, minFree) {
		r.compact()
	}
	p := r.buf[r.end:min(len(r.buf), r.end+r.step)]
	n, err := r.src.Read(p)
	if n < 0 || n > len(p) {
		n, err = 0, errBadCount
	}
	if n == len(p) && r.step < readSize {
		r.step *= 2 // the source has more at hand than was asked for
	}
	r.end += n
	switch {
	case err != nil:
		r.srcErr = err
	case n == 0:
		r.empty++
		if r.empty >= maxEmptyReads {
			r.srcErr = io.ErrNoProgress
		}
	default:
		r.empty = 0
	}
}

// keepFrom is the index in buf of the first byte still needed: the start
// of the event being read while buf keeps it whole, else the line being
// read.
func (r *Reader) keepFrom() int {
	if r.blk.open && !r.blk.spilled {
		return int(r.blk.start - r.base)
	}
	return r.pos
}

// spill copies the head of the event being read out of buf once it is
// longer than MaxRaw, with its data so far, so that buf need not keep it.
func (r *Reader) spill() {
	b := &r.blk
	if !b.open || b.spilled || int64(r.end)-(b.start-r.base) <= r.lim.MaxRaw {
		return
	}
	s := int(b.start - r.base)
	r.head = append(r.head[:0], r.buf[s:s+int(r.lim.MaxRaw)]...)
	r.unref()
	b.spilled = true
}

// bufSize is the size of buffer that holds kept bytes and a read of
// step bytes.
func bufSize(kept, step int) int {
	size := step
	for size-kept < step || (kept > size/4 && size < roomySize) {
		size *= 2
	}
	return size
}

// compact moves the bytes still needed to the front of buf: into a new
// buffer when they need more room, when a buffer past roomySize is much
// larger than they need, or when buf holds events handed over to be kept
// (of at least lendBuf then).
func (r *Reader) compact() {
	keep := r.keepFrom()
	kept := r.end - keep
	size := bufSize(kept, r.step)
	if r.lent > 0 {
		size = max(size, lendBuf)
	}
	if r.lent > 0 || size > len(r.buf) || (len(r.buf) > roomySize && size < len(r.buf)) {
		nb := make([]byte, size)
		copy(nb, r.buf[keep:r.end])
		r.buf, r.lent = nb, 0
	} else {
		copy(r.buf, r.buf[keep:r.end])
	}
	r.base += int64(keep)
	r.pos -= keep
	r.end = kept
}

// release lets go of the room a huge event took, once it is returned:
// data joined past roomySize, and buf past roomySize when less would do.
func (r *Reader) release() {
	if cap(r.data) > roomySize {
		r.data = nil
	}
	if len(r.buf) > roomySize && bufSize(r.end-r.keepFrom(), r.step) < len(r.buf) {
		r.compact()
	}
}
