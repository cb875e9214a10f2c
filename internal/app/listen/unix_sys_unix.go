//go:build unix

package listen

import (
	"fmt"
	"net"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// listenPrivate creates the socket with mode 0600 from the start: no
// other user can connect between its creation and a chmod.
func listenPrivate(path string) (net.Listener, error) {
	old := syscall.Umask(0o177)
	defer syscall.Umask(old)
	return net.Listen("unix", path)
}

// lockDir holds an exclusive flock on the folder of path until unlock is
// called: mcpscope processes that probe, remove, create or remove again a
// socket in one folder take turns, so none removes a socket another has
// just made. The lock is on the folder, which every user may open, and
// leaves no file behind.
func lockDir(path string) (unlock func(), err error) {
	dir := filepath.Dir(path)
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("opening the folder %s to lock it: %w", dir, err)
	}
	for {
		err = unix.Flock(fd, unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		_ = unix.Close(fd)
		return nil, fmt.Errorf("locking the folder %s: %w", dir, err)
	}
	return func() {
		_ = unix.Flock(fd, unix.LOCK_UN)
		_ = unix.Close(fd)
	}, nil
}
