//go:build unix

package conn

import (
	"errors"
	"syscall"
)

// writeNow writes what of b a file descriptor takes at once, without
// waiting for room, and returns how many bytes it took: 0 when dst is not
// a file descriptor, would have to wait, or failed (the watched write
// that follows then meets the failure itself and reports it as usual).
func writeNow(dst DeadlineWriter, b []byte) int {
	sc, ok := dst.(syscall.Conn)
	if !ok || len(b) == 0 {
		return 0
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	err = rc.Write(func(fd uintptr) bool {
		for {
			m, werr := syscall.Write(int(fd), b)
			if !errors.Is(werr, syscall.EINTR) {
				n = max(m, 0)
				return true // never wait: a write that would is watched instead
			}
		}
	})
	if err != nil {
		return 0
	}
	return n
}
