package wrap

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// lockWait bounds how long wrap and unwrap wait for one another.
var lockWait = 10 * time.Second

// lockPoll is how often a busy lock is tried again.
const lockPoll = 20 * time.Millisecond

// ErrBusy says another mcpscope wrap or unwrap holds the lock.
var ErrBusy = errors.New("another mcpscope wrap or unwrap is running")

// lockDir takes the lock of the backup directory dir (created 0700): one
// wrap or unwrap at a time reads, rewrites and writes a config file and
// its backup. It waits up to lockWait for another run to finish; the lock
// goes with the process, so a crashed run leaves none behind.
func lockDir(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("the backup directory: %w", err)
	}
	path := filepath.Join(dir, ".lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	deadline := time.Now().Add(lockWait)
	for {
		busy, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		if !busy {
			return func() { f.Close() }, nil
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("%w: %s has been locked for %v; try again when it is done", ErrBusy, path, lockWait)
		}
		time.Sleep(lockPoll)
	}
}
