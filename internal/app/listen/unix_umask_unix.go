//go:build unix

package listen

import (
	"net"
	"syscall"
)

// listenPrivate creates the socket with mode 0600 from the start: no
// other user can connect between its creation and a chmod.
func listenPrivate(path string) (net.Listener, error) {
	old := syscall.Umask(0o177)
	defer syscall.Umask(old)
	return net.Listen("unix", path)
}
