//go:build !unix

package listen

import "net"

// listenPrivate creates the socket; Unix then sets its mode.
func listenPrivate(path string) (net.Listener, error) {
	return net.Listen("unix", path)
}

// lockDir locks nothing where flock is not: a socket there is still
// removed only when its file is the one this listener made.
func lockDir(string) (func(), error) { return func() {}, nil }
