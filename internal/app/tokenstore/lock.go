package tokenstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"time"
)

// ErrNotPrivate is wrapped by the error for a token file that users other
// than its owner may read or change.
var ErrNotPrivate = errors.New("the token file must be private to its owner")

// ErrLocked is wrapped by the error for a token file whose lock another
// process held for longer than lockWait.
var ErrLocked = errors.New("the token file is locked by another process")

// lockWait bounds how long a store waits for another process's lock.
const lockWait = 10 * time.Second

// lockPoll is how often a waiting store tries the lock again.
const lockPoll = 20 * time.Millisecond

// lockName is the name of the lock file beside the token file.
const lockName = FileName + ".lock"

// lockExcl takes the lock at path by creating the file with O_EXCL and
// releases it by removing the file. It waits up to wait for another
// holder; a lock file older than stale was left by a process that died
// and is removed. It is the lock where flock is not at hand.
func lockExcl(path string, wait, stale time.Duration) (unlock func(), err error) {
	deadline := time.Now().Add(wait)
	for {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			_, _ = f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("locking the token file: %w", err)
		}
		if fi, err := os.Stat(path); err == nil && time.Since(fi.ModTime()) > stale {
			os.Remove(path)
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s held for %v (remove it if no mcpscope is running): %w", path, wait, ErrLocked)
		}
		time.Sleep(lockPoll)
	}
}
