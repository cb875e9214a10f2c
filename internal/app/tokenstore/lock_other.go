//go:build !unix

package tokenstore

import "time"

// staleLock is the age past which a lock file is taken as left behind by
// a process that died: a store holds the lock for milliseconds.
const staleLock = 30 * time.Second

// lock takes the lock file at path with O_EXCL, waiting up to wait.
func lock(path string, wait time.Duration) (unlock func(), err error) {
	return lockExcl(path, wait, staleLock)
}
