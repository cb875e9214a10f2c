//go:build unix

package conn

import (
	"errors"
	"syscall"
)

// direct writes to a file descriptor what it takes at once, without
// waiting for room. One is made per destination and reused, so a write
// allocates nothing.
type direct struct {
	rc  syscall.RawConn
	b   []byte             // what the write in progress writes
	n   int                // what it wrote
	fn  func(uintptr) bool // writeFD, made once
	raw bool               // the descriptor does not block: written with raw calls
}

// newDirect returns the direct writer of dst, or nil when dst is not a
// file descriptor.
func newDirect(dst DeadlineWriter) *direct {
	sc, ok := dst.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	d := &direct{rc: rc, raw: nonBlocking(rc)}
	d.fn = d.writeFD
	return d
}

// write writes what of b the descriptor takes at once and returns how
// many bytes it took: 0 when it would have to wait, or failed (the
// watched write that follows then meets the failure itself and reports
// it as usual).
func (d *direct) write(b []byte) int {
	if d == nil || len(b) == 0 {
		return 0
	}
	d.b, d.n = b, 0
	err := d.rc.Write(d.fn)
	d.b = nil
	if err != nil {
		return 0
	}
	return d.n
}

// writeFD is one write(2) of d.b, retried when a signal interrupts it:
// a raw call when the descriptor does not block.
func (d *direct) writeFD(fd uintptr) bool {
	for {
		var m int
		var err error
		if d.raw {
			var e syscall.Errno
			if m, e = rawWrite(fd, d.b); e != 0 {
				err = e
			}
		} else {
			m, err = syscall.Write(int(fd), d.b)
		}
		if !errors.Is(err, syscall.EINTR) {
			if err != nil {
				m = 0
			}
			d.n = m
			return true // never wait: a write that would is watched instead
		}
	}
}
