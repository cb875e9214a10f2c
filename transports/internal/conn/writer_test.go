package conn

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
)

// stallingWriter takes room bytes, then blocks until a past write deadline
// is set; onStall runs when it blocks.
type stallingWriter struct {
	mu      sync.Mutex
	got     bytes.Buffer
	room    int
	expired chan struct{}
	onStall func()
	fail    error // returned by every Write when set
}

func newStallingWriter(room int) *stallingWriter {
	return &stallingWriter{room: room, expired: make(chan struct{})}
}

func (w *stallingWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	if w.fail != nil {
		w.mu.Unlock()
		return 0, w.fail
	}
	n := min(len(b), w.room)
	w.room -= n
	w.got.Write(b[:n])
	expired, onStall := w.expired, w.onStall
	w.mu.Unlock()
	if n == len(b) {
		return n, nil
	}
	if onStall != nil {
		onStall()
	}
	<-expired
	return n, os.ErrDeadlineExceeded
}

func (w *stallingWriter) SetWriteDeadline(d time.Time) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if d.IsZero() {
		w.expired = make(chan struct{})
	} else if d.Before(time.Now()) {
		close(w.expired)
	}
	return nil
}

func TestWriterFinishesACutFrameFirst(t *testing.T) {
	w := &Writer{Unit: "line", Next: "message", Dest: "the pipe"}
	dst := newStallingWriter(3)
	ctx, cancel := context.WithCancel(context.Background())
	dst.onStall = cancel
	err := w.Write(ctx, dst, []byte("first\n"))
	want := "sending was cancelled after 3 of 6 bytes; the rest goes out before the next message: context canceled"
	if err == nil || err.Error() != want || !errors.Is(err, context.Canceled) {
		t.Fatalf("cut write = %v, want %q", err, want)
	}
	dst.mu.Lock()
	dst.room, dst.onStall = 1<<10, nil
	dst.mu.Unlock()
	if err := w.Write(context.Background(), dst, []byte("second\n")); err != nil {
		t.Fatalf("next write = %v", err)
	}
	if got := dst.got.String(); got != "first\nsecond\n" {
		t.Fatalf("wire = %q, want both lines whole", got)
	}
}

// cutByCancel writes frame with w to a stallingWriter that takes room
// bytes, cancelling the write when it stalls, and returns the writer.
func cutByCancel(w *Writer, room int, frame string) *stallingWriter {
	dst := newStallingWriter(room)
	ctx, cancel := context.WithCancel(context.Background())
	dst.onStall = cancel
	_ = w.Write(ctx, dst, []byte(frame))
	return dst
}

func TestWriterRestFails(t *testing.T) {
	w := &Writer{Unit: "frame", Next: "frame", Dest: "the stream"}
	dst := cutByCancel(w, 2, "abcdef")
	dst.fail = io.ErrClosedPipe
	err := w.Write(context.Background(), dst, []byte("next"))
	want := "not sent: the rest of an earlier frame could not be written: io: read/write on closed pipe"
	if err == nil || err.Error() != want || !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("write after a cut = %v, want %q", err, want)
	}
}

func TestWriterFailureIsNotKept(t *testing.T) {
	w := &Writer{Unit: "line", Next: "message", Dest: "the server's stdin"}
	dst := newStallingWriter(0)
	dst.fail = io.ErrClosedPipe
	err := w.Write(context.Background(), dst, []byte("x\n"))
	if err == nil || err.Error() != "writing to the server's stdin: io: read/write on closed pipe" {
		t.Fatalf("failed write = %v", err)
	}
	if len(w.pending) != 0 {
		t.Fatalf("a failed write kept %q", w.pending)
	}
}

func TestWriteUntilOnAPipe(t *testing.T) {
	r, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer wr.Close()
	ctx, cancel := context.WithCancel(context.Background())
	big := make([]byte, 4<<20) // far more than a pipe buffers
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	go func() {
		n, err := WriteUntil(ctx, wr, big)
		done <- result{n, err}
	}()
	if _, err := io.ReadFull(r, make([]byte, 1)); err != nil {
		t.Fatal(err)
	}
	cancel()
	res := <-done
	if !errors.Is(res.err, context.Canceled) || res.n <= 0 || res.n >= len(big) {
		t.Fatalf("WriteUntil = %d, %v; want part written and context.Canceled", res.n, res.err)
	}
	// The deadline is lifted again: a later write goes through.
	go func() { _, _ = io.Copy(io.Discard, r) }()
	if n, err := WriteUntil(context.Background(), wr, []byte("more")); err != nil || n != 4 {
		t.Fatalf("write after the cut = %d, %v", n, err)
	}
}

// A frame cut short by its deadline stalls the Writer: the rest is
// dropped, and every later Write fails at once without touching dst, so
// nothing is ever written into the middle of the cut frame.
func TestWriterDeadlineStalls(t *testing.T) {
	w := &Writer{Unit: "line", Next: "message", Dest: "the server's stdin"}
	dst := newStallingWriter(3)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := w.Write(ctx, dst, []byte("first\n"))
	want := "the server stopped reading: only 3 of the 6 bytes of a line went into the server's stdin in time; nothing more can be sent, since the rest would have to go first (context deadline exceeded)"
	if err == nil || err.Error() != want || !errors.Is(err, client.ErrStoppedReading) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("cut write = %v, want %q", err, want)
	}
	dst.mu.Lock()
	dst.room = 1 << 10
	dst.mu.Unlock()
	err = w.Write(context.Background(), dst, []byte("second\n"))
	var stall *StalledError
	if !errors.As(err, &stall) || stall.Sent != 3 || stall.Size != 6 || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("write after the stall = %v, want the StalledError alone", err)
	}
	if got := dst.got.String(); got != "fir" {
		t.Fatalf("wire = %q, want only the cut head", got)
	}
	if w.Stalled() != stall {
		t.Fatalf("Stalled = %v", w.Stalled())
	}
}

// The rest of a cancelled frame that cannot be finished before the next
// Write's deadline stalls the Writer too.
func TestWriterRestPastDeadlineStalls(t *testing.T) {
	w := &Writer{Unit: "frame", Next: "frame", Dest: "the control stream"}
	dst := cutByCancel(w, 2, "abcdef")
	dst.mu.Lock()
	dst.onStall, dst.expired = nil, make(chan struct{})
	dst.mu.Unlock()
	short, stop := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer stop()
	err := w.Write(short, dst, []byte("next"))
	var stall *StalledError
	if !errors.As(err, &stall) || stall.Sent != 2 || stall.Size != 6 || !strings.HasPrefix(err.Error(), "not sent: the server stopped reading") {
		t.Fatalf("write behind a rest that never goes = %v", err)
	}
}

// A pipe with room takes a frame whole without its context being
// watched; a frame
// larger than the pipe's room is written in part at once and the rest
// under watch, cut by the deadline into a stall.
func TestWriterOnAPipeDirectly(t *testing.T) {
	r, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer wr.Close()
	w := &Writer{Unit: "line", Next: "message", Dest: "the server's stdin"}
	if err := w.Write(context.Background(), wr, []byte("one\n")); err != nil {
		t.Fatalf("Write = %v", err)
	}
	got := make([]byte, 4)
	if _, err := io.ReadFull(r, got); err != nil || string(got) != "one\n" {
		t.Fatalf("read %q, %v", got, err)
	}
	ctx, stop := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer stop()
	err = w.Write(ctx, wr, make([]byte, 4<<20)) // far more than a pipe buffers; nobody reads
	var stall *StalledError
	if !errors.As(err, &stall) || stall.Sent <= 0 || stall.Sent >= 4<<20 {
		t.Fatalf("Write of more than the pipe takes = %v; want a stall after part of it", err)
	}
}
