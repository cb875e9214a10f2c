//go:build unix

package conn

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"
)

// A pipe the poller watches is read with raw calls: what is written
// arrives, a reader waits for a write to come, the end is io.EOF and a
// file closed under a waiting read gives os.ErrClosed, as os.File's own
// reads do.
func TestPipeReader(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	pr := NewPipeReader(r)
	if _, ok := pr.(*PipeReader); !ok && rawCalls {
		t.Fatalf("a pipe from os.Pipe is read as %T, want *PipeReader", pr)
	}
	got := make(chan []byte)
	go func() {
		b := make([]byte, 64)
		n, _ := pr.Read(b) // waits in the poller: nothing is written yet
		got <- b[:n]
	}()
	if _, err := w.Write([]byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	if b := <-got; string(b) != "hello\n" {
		t.Fatalf("read %q", b)
	}
	big := bytes.Repeat([]byte("x"), 1<<20)
	go func() { _, _ = w.Write(big); _ = w.Close() }()
	all, err := io.ReadAll(pr)
	if err != nil || !bytes.Equal(all, big) {
		t.Fatalf("read %d bytes, %v; want %d and the end", len(all), err, len(big))
	}

	r2, w2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close()
	pr2 := NewPipeReader(r2)
	done := make(chan error)
	go func() {
		_, err := pr2.Read(make([]byte, 8))
		done <- err
	}()
	_ = r2.Close()
	if err := <-done; !errors.Is(err, os.ErrClosed) {
		t.Fatalf("a read of a closed pipe: %v, want os.ErrClosed", err)
	}
}

// A descriptor in blocking mode is never read with raw calls, which
// would stall the thread: the file itself is its reader, and its direct
// writer makes ordinary calls.
func TestBlockingDescriptorIsNotRaw(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	rfd, wfd := r.Fd(), w.Fd() // Fd puts both in blocking mode
	_, _ = rfd, wfd
	if pr := NewPipeReader(r); pr != io.Reader(r) {
		t.Fatalf("a blocking pipe is read as %T, want the file", pr)
	}
	if d := newDirect(w); d == nil || d.raw {
		t.Fatalf("direct writer of a blocking pipe: %+v, want one making ordinary calls", d)
	}
	r2, w2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	defer w2.Close()
	d := newDirect(w2)
	if d == nil || d.raw != rawCalls {
		t.Fatalf("direct writer of a polled pipe: %+v, want raw calls: %v", d, rawCalls)
	}
	if n := d.write([]byte("ok\n")); n != 3 {
		t.Fatalf("raw write took %d bytes", n)
	}
	b := make([]byte, 3)
	if _, err := io.ReadFull(r2, b); err != nil || string(b) != "ok\n" {
		t.Fatalf("read %q, %v", b, err)
	}
}
