package stdiorelay

import (
	"context"
	"fmt"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// keptHead is how much of a line past MaxLine is captured.
const keptHead = 64 << 10

// LineTooLongError says a line was longer than the proxy captures whole:
// it was carried on whole, and its head is what was captured.
type LineTooLongError struct {
	Size int64 // the line's bytes, delimiter included
	Max  int   // the longest line captured whole
	Kept int   // the bytes of its head that were captured
}

func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("a line of %d bytes, longer than the %d captured whole: carried on whole, its first %d bytes captured",
		e.Size, e.Max, e.Kept)
}

// carryLong carries a line past MaxLine on as it is read, its first piece
// being first, and captures its head. The line holds the writer toward its
// receiver from its first byte to its last, so nothing interleaves.
func (r *relay) carryLong(ctx context.Context, dir capture.Dir, lr *lineReader, first piece) error {
	w := r.to(dir)
	head := keepHead(nil, first.raw)
	size := int64(len(first.raw))
	if err := w.lock(ctx); err != nil {
		return err
	}
	defer w.unlock()
	werr := w.writeLocked(first.raw, false)
	for p := first; !p.end; {
		var err error
		if p, err = lr.next(); err != nil {
			break
		}
		size += int64(len(p.raw))
		head = keepHead(head, p.raw)
		if werr == nil {
			werr = w.writeLocked(p.raw, false)
		}
	}
	e := &LineTooLongError{Size: size, Max: r.cfg.MaxLine, Kept: len(head)}
	r.sess.CaptureOn("", &capture.Frame{
		Dir: dir, Chan: capture.Channel{Kind: capture.Control},
		Raw: head, Kept: len(head), Size: int(min(size, int64(^uint(0)>>1))), Enc: proto.EncJSON, Err: e,
		Fields: []proto.Field{{Offset: 0, Len: len(head), Name: "body (head)",
			Value: fmt.Sprintf("first %d of %d bytes", len(head), size), Kind: proto.FieldBody}},
	})
	if werr != nil && dir == capture.In {
		r.endHost()
	}
	return werr
}

// keepHead appends to head what of b fits in keptHead bytes.
func keepHead(head, b []byte) []byte {
	return append(head, b[:min(len(b), keptHead-len(head))]...)
}
