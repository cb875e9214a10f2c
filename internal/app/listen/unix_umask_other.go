//go:build !unix

package listen

import "net"

// listenPrivate creates the socket; Unix then sets its mode.
func listenPrivate(path string) (net.Listener, error) {
	return net.Listen("unix", path)
}
