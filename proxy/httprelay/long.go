package httprelay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// keptHead is how much of a message past maxBody is captured.
const keptHead = 64 << 10

// BodyTooLongError says a message (a POST body, a JSON answer, a line of
// the stdio bridge) was longer than the relay holds whole: it was carried
// on as it was read, never held, so no pause or fault applied to it, and
// its head is what was captured.
type BodyTooLongError struct {
	Size int64 // the message's bytes
	Max  int   // the longest message held whole
	Kept int   // the bytes of its head that were captured
}

func (e *BodyTooLongError) Error() string {
	return fmt.Sprintf("a message of %d bytes, longer than the %d held whole: carried on as it came, not held (no pause or fault applied), its first %d bytes captured",
		e.Size, e.Max, e.Kept)
}

// readBody reads rd whole when it is at most maxBody bytes; past that it
// returns the first maxBody+1 bytes and long true: the rest is unread.
func readBody(rd io.Reader) (b []byte, long bool, err error) {
	b, err = io.ReadAll(io.LimitReader(rd, maxBody+1))
	return b, err == nil && len(b) > maxBody, err
}

// headKeeper reads through src, counting its bytes and keeping the first
// keptHead of them. The HTTP client may read a request's body on a
// goroutine of its own: it is safe for concurrent use.
type headKeeper struct {
	src io.Reader

	mu   sync.Mutex
	head []byte
	size int64
	err  error // a read error other than io.EOF
	told bool  // the capture was made
}

// Read reads from src.
func (h *headKeeper) Read(p []byte) (int, error) {
	n, err := h.src.Read(p)
	h.mu.Lock()
	h.head = append(h.head, p[:min(n, keptHead-len(h.head))]...)
	h.size += int64(n)
	if err != nil && !errors.Is(err, io.EOF) && h.err == nil {
		h.err = err
	}
	h.mu.Unlock()
	return n, err
}

// capture captures, once, the message read so far as a frame of dir on
// conn: its head, its size, the error that says it was not held (and why
// it broke off, when it did).
func (h *headKeeper) capture(t tap, dir capture.Dir, conn string, broke error) {
	h.mu.Lock()
	if h.told {
		h.mu.Unlock()
		return
	}
	h.told = true
	head, size := h.head, h.size
	if broke == nil {
		broke = h.err
	}
	h.mu.Unlock()
	var err error = &BodyTooLongError{Size: size, Max: maxBody, Kept: len(head)}
	if broke != nil {
		err = fmt.Errorf("%w; it broke off: %v", err, broke)
	}
	t.frame(dir, conn, &capture.Frame{
		Chan: capture.Channel{Kind: capture.Control}, Raw: head, Kept: len(head), Size: int(min(size, int64(^uint(0)>>1))),
		Enc: proto.EncJSON, Err: err,
		Fields: []proto.Field{{Offset: 0, Len: len(head), Name: "body (head)",
			Value: fmt.Sprintf("first %d of %d bytes", len(head), size), Kind: proto.FieldBody}},
	})
}

// copyChunks reads src to its end and hands each piece read to write.
func copyChunks(src io.Reader, write func([]byte) error) (werr, rerr error) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && werr == nil {
			werr = write(buf[:n])
		}
		if errors.Is(err, io.EOF) {
			return werr, nil
		}
		if err != nil {
			return werr, err
		}
		if werr != nil {
			return werr, nil
		}
	}
}

// carryLong carries on to the host a JSON answer past maxBody, first
// being what was read of it: as it is read, captured by its head.
func (a *answer) carryLong(ctx context.Context, first []byte) error {
	hk := &headKeeper{src: io.MultiReader(bytes.NewReader(first), a.rsp.Body)}
	werr, rerr := a.host.carry(ctx, hk)
	hk.capture(a.tap, capture.In, a.conn, rerr)
	if werr != nil {
		return werr
	}
	if rerr != nil {
		return fmt.Errorf("%w: %v", errBroken, rerr)
	}
	return nil
}

// carry writes what src holds to the host's response as one answer, as it
// is read.
func (ex *exchange) carry(ctx context.Context, src io.Reader) (werr, rerr error) {
	return copyChunks(src, func(b []byte) error { return ex.raw(ctx, b) })
}

// carry writes what src holds to the host as one line, as it is read:
// its line ends made spaces (whitespace, in JSON), a line end after it.
// No other line reaches the host in between.
func (l *lineHost) carry(_ context.Context, src io.Reader) (werr, rerr error) {
	b := l.b
	b.out.Lock()
	defer b.out.Unlock()
	werr, rerr = copyChunks(src, func(p []byte) error {
		out := bytes.Clone(p)
		for i, c := range out {
			if c == '\r' || c == '\n' {
				out[i] = ' '
			}
		}
		_, err := b.opt.Stdout.Write(out)
		return err
	})
	if werr == nil {
		_, werr = b.opt.Stdout.Write([]byte{'\n'})
	}
	if werr != nil {
		werr = fmt.Errorf("writing to the host: %w", werr)
	}
	return werr, rerr
}

// otherLong passes on a body past maxBody that is no message as it is
// read, first being what was read of it, captured by its head.
func (a *answer) otherLong(ctx context.Context, first []byte) error {
	hk := &headKeeper{src: io.MultiReader(bytes.NewReader(first), a.rsp.Body)}
	werr, rerr := copyChunks(hk, func(b []byte) error { return a.host.raw(ctx, b) })
	// copyChunks has returned: hk is this goroutine's alone.
	a.tap.body(capture.In, a.conn, hk.head, nil, int(min(hk.size, int64(^uint(0)>>1))))
	if werr != nil {
		return werr
	}
	if rerr != nil {
		a.tap.note(capture.In, a.conn, "the answer broke off: "+rerr.Error(), rerr)
		return fmt.Errorf("%w: %v", errBroken, rerr)
	}
	return nil
}

// carryLong sends to the server a host's request whose body is past
// maxBody, first being what was read of it: the rest is read as it is
// sent, never held, and its head captured once it is sent (or broke off).
func (r *Relay) carryLong(ctx context.Context, ex *exchange, first []byte) error {
	hk := &headKeeper{src: io.MultiReader(bytes.NewReader(first), ex.req.Body)}
	up, err := r.upstreamRequestFrom(ctx, ex.req, &capturedAtEnd{hk: hk, end: func(err error) { hk.capture(r.tap, capture.Out, ex.conn, err) }})
	if err != nil {
		return r.refuse(ex, http.StatusBadGateway, "mcpscope proxy: "+err.Error())
	}
	if ex.req.ContentLength > 0 {
		up.ContentLength = ex.req.ContentLength
	}
	ex.mu.Lock()
	ex.answered = true
	ex.mu.Unlock()
	err = r.forwardRequest(ctx, ex, up)
	hk.capture(r.tap, capture.Out, ex.conn, nil) // the server answered before the body ended
	return err
}

// capturedAtEnd reads a headKeeper and captures it when its end comes.
type capturedAtEnd struct {
	hk  *headKeeper
	end func(error)
}

// Read reads on, capturing at the end (io.EOF or an error).
func (c *capturedAtEnd) Read(p []byte) (int, error) {
	n, err := c.hk.Read(p)
	switch {
	case errors.Is(err, io.EOF):
		c.end(nil)
	case err != nil:
		c.end(err)
	}
	return n, err
}
