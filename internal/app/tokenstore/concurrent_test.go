package tokenstore

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Stores on one directory, each saving its own entries at the same time,
// lose none of the others': every write re-reads the file under the lock.
func TestConcurrentSavesAllKept(t *testing.T) {
	dir := t.TempDir()
	kr := newFakeKeyring()
	const writers, each = 4, 10
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Go(func() {
			s := Open(dir, kr) // a Store each: only the lock file orders them
			for i := range each {
				errs <- s.Save(entry(fmt.Sprintf("https://as%d.example.com", w), fmt.Sprintf("https://mcp.example.com/%d", i), i))
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	all, err := Open(dir, kr).List()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != writers*each {
		t.Fatalf("List = %d entries after %d concurrent saves", len(all), writers*each)
	}
}

// envWriter names the variable that makes the test binary a writer process
// for TestProcessesSavingAllKept: its value is the store's directory;
// envWriterName names the writer.
const (
	envWriter     = "TOKENSTORE_TEST_WRITER"
	envWriterName = "TOKENSTORE_TEST_NAME"
)

// writerProcess is a child's body in TestProcessesSavingAllKept: ten
// entries of its own saved in dir; its exit code says whether they were.
func writerProcess(dir, name string) int {
	s := Open(dir, nil)
	for i := range 10 {
		if err := s.Save(entry("https://as-"+name+".example.com", fmt.Sprintf("https://mcp.example.com/%d", i), i)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// Three processes saving in one directory at once lose none of each
// other's entries: the lock orders them across processes.
func TestProcessesSavingAllKept(t *testing.T) {
	dir := t.TempDir()
	var cmds []*exec.Cmd
	for _, name := range []string{"a", "b", "c"} {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), envWriter+"="+dir, envWriterName+"="+name)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("a writer process failed: %v", err)
		}
	}
	all, err := Open(dir, nil).List()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 30 {
		t.Fatalf("List = %d entries after 3 processes saved 10 each", len(all))
	}
}

// A lock held by another holder makes a store wait, then give up with
// ErrLocked; a held flock of a process that dies is released by the kernel.
func TestLockWaitsBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), lockName)
	unlock, err := lock(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lock(path, 30*time.Millisecond); !errors.Is(err, ErrLocked) {
		t.Fatalf("a second lock = %v, want ErrLocked", err)
	}
	unlock()
	unlock2, err := lock(path, time.Second)
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	unlock2()
}

// The O_EXCL lock (where flock is not at hand) waits for its holder, gives
// up with ErrLocked, and takes over a lock file past the stale age.
func TestLockExcl(t *testing.T) {
	path := filepath.Join(t.TempDir(), lockName)
	unlock, err := lockExcl(path, time.Second, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockExcl(path, 30*time.Millisecond, time.Hour); !errors.Is(err, ErrLocked) {
		t.Fatalf("a second lock = %v, want ErrLocked", err)
	}
	unlock()
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("unlock left the lock file")
	}
	if _, err := lockExcl(path, time.Second, time.Hour); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	unlock3, err := lockExcl(path, 30*time.Millisecond, time.Hour)
	if err != nil {
		t.Fatalf("a stale lock file was not taken over: %v", err)
	}
	unlock3()
	// Many goroutines through lockExcl never hold it at once.
	var mu sync.Mutex
	held := 0
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 5 {
				u, err := lockExcl(path, 10*time.Second, time.Hour)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				held++
				if held > 1 {
					t.Error("two holders of the O_EXCL lock")
				}
				mu.Unlock()
				time.Sleep(time.Millisecond)
				mu.Lock()
				held--
				mu.Unlock()
				u()
			}
		})
	}
	wg.Wait()
}
