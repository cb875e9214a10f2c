package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// Write through a symbolic link writes the file it names and leaves the
// link a link; an existing file keeps its mode.
func TestWriteKeepsSymlinkAndMode(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.WriteFile(real, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("real", link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, []byte("new"), 0o666, nil); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink %s was replaced: %v, %v", link, fi, err)
	}
	if got, _ := os.ReadFile(real); string(got) != "new" {
		t.Errorf("the link's target holds %q", got)
	}
	if fi, err := os.Stat(real); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("a 0600 file became %v (%v)", fi.Mode().Perm(), err)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("later", dangling); err != nil {
		t.Fatal(err)
	}
	if err := Write(dangling, []byte("x"), 0o666, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "later")); string(got) != "x" {
		t.Errorf("a dangling link's target holds %q", got)
	}
}

// A new file gets the mode asked less the umask: nothing wider.
func TestWriteNewFileHonoursUmask(t *testing.T) {
	mask := syscall.Umask(0o077)
	defer syscall.Umask(mask)
	path := filepath.Join(t.TempDir(), "new")
	if err := Write(path, []byte("x"), 0o666, nil); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("umask 077, new file %v (%v)", fi.Mode().Perm(), err)
	}
}

// A fifo is written to, not replaced by a regular file.
func TestWriteFifoInPlace(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- b
	}()
	if err := Write(fifo, []byte("through"), 0o666, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case b := <-got:
		if string(b) != "through" {
			t.Errorf("the fifo's reader got %q", b)
		}
	case <-time.After(guard.Hang):
		t.Fatal("the fifo's reader got nothing")
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the fifo was replaced: %v, %v", fi, err)
	}
}
