//go:build unix

package conn

import (
	"io"
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Reads and writes of a pipe the Go poller watches (so in non-blocking
// mode) are made as raw system calls: such a call never blocks, so the
// runtime's bookkeeping of a call that might (entersyscall, which wakes
// the runtime's monitor thread each time the process was idle) buys
// nothing, and on a request-answer exchange it is a fifth of the
// client's CPU time per call. A call that would block returns EAGAIN and
// the poller waits as usual.

// nonBlocking reports whether the descriptor of rc is in non-blocking
// mode, which a raw call needs: one that blocked would stall the thread
// and its Go work with it.
func nonBlocking(rc syscall.RawConn) bool {
	if !rawCalls {
		return false
	}
	ok := false
	_ = rc.Control(func(fd uintptr) {
		fl, err := unix.FcntlInt(fd, unix.F_GETFL, 0)
		ok = err == nil && fl&unix.O_NONBLOCK != 0
	})
	return ok
}

// rawWrite is one write(2) of b to fd as a raw call.
func rawWrite(fd uintptr, b []byte) (int, syscall.Errno) { return rawCall(syscall.SYS_WRITE, fd, b) }

// rawRead is one read(2) into b from fd as a raw call.
func rawRead(fd uintptr, b []byte) (int, syscall.Errno) { return rawCall(syscall.SYS_READ, fd, b) }

// rawCall is one read(2) or write(2), trap, of b on fd as a raw call.
func rawCall(trap, fd uintptr, b []byte) (int, syscall.Errno) {
	if len(b) == 0 {
		return 0, 0
	}
	n, _, e := syscall.RawSyscall(trap, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	return int(n), e
}

// PipeReader reads a pipe the Go poller watches with raw read(2) calls,
// waiting in the poller when there is nothing to read. Anything else —
// an error, the end of the stream, a closed file, a deadline — is left
// to the file's own Read, so that its errors are the ones os.File gives.
type PipeReader struct {
	f  *os.File
	rc syscall.RawConn
	b  []byte
	n  int
	fn func(uintptr) bool
}

// NewPipeReader returns a reader of f: a PipeReader when f is a
// non-blocking descriptor the poller watches, else f itself.
func NewPipeReader(f *os.File) io.Reader {
	rc, err := f.SyscallConn()
	if err != nil || !nonBlocking(rc) {
		return f
	}
	r := &PipeReader{f: f, rc: rc}
	r.fn = r.readFD
	return r
}

// Read reads what the pipe holds, at most len(p) bytes, waiting for some.
func (r *PipeReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r.b, r.n = p, -1
	err := r.rc.Read(r.fn)
	r.b = nil
	if err != nil || r.n <= 0 {
		return r.f.Read(p) // the end, an error, or a closed file: os.File's own answer
	}
	return r.n, nil
}

// readFD is one raw read; false (wait) only when the pipe is empty.
func (r *PipeReader) readFD(fd uintptr) bool {
	for {
		n, e := rawRead(fd, r.b)
		switch e {
		case 0:
			r.n = n
			return true
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		r.n = -1
		return true
	}
}
