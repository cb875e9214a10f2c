//go:build unix

package tokenstore

import (
	"fmt"
	"io/fs"
)

// checkPrivate refuses a token file that users other than its owner may
// read or change: it holds tokens.
func checkPrivate(path string, mode fs.FileMode) error {
	if mode.Perm()&0o077 != 0 {
		return fmt.Errorf("%s has mode %04o, open to other users; run chmod 600 %s: %w", path, mode.Perm(), path, ErrNotPrivate)
	}
	return nil
}
