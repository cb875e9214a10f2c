//go:build unix

package httpconf

import "golang.org/x/sys/unix"

// writable reports whether this user may connect to the socket at path:
// connecting needs write permission on it.
func writable(path string) error {
	return unix.Access(path, unix.W_OK)
}
