//go:build !unix

package httpconf

// writable has nothing to check where the system keeps no Unix
// permission bits on a socket file: the connection says.
func writable(string) error { return nil }
