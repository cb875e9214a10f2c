package listen

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/socktest"
)

// Unix makes a socket of mode 0600 in place of a stale one, refuses a
// live socket and any other file (leaving them be), and closing the
// listener removes the socket.
func TestUnix(t *testing.T) {
	dir := socktest.ShortDir(t)
	path := filepath.Join(dir, "s.sock")
	stale, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	stale.(*net.UnixListener).SetUnlinkOnClose(false)
	_ = stale.Close()

	ln, err := Unix(path)
	if err != nil {
		t.Fatalf("over a stale socket: %v", err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Type() != os.ModeSocket || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the socket: %v, %v", fi, err)
	}
	if _, err := Unix(path); err == nil || !strings.Contains(err.Error(), "listens on the Unix socket") {
		t.Errorf("over a live socket: %v", err)
	}
	_ = ln.Close()
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Errorf("the socket outlived its listener: %v", err)
	}

	file := filepath.Join(dir, "keep")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Unix(file); err == nil || !strings.Contains(err.Error(), "is not a socket") {
		t.Errorf("over a file: %v", err)
	}
	if _, err := Unix(dir); err == nil || !strings.Contains(err.Error(), "is not a socket") {
		t.Errorf("over a directory: %v", err)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "x" {
		t.Errorf("the file became %q, %v", b, err)
	}
}

// A server that stops removes its socket only while the file is still its
// own: the socket another server made at the path stays, and that server
// keeps its clients.
func TestUnixCloseLeavesAnotherServersSocket(t *testing.T) {
	path := filepath.Join(socktest.ShortDir(t), "s.sock")
	first, err := Unix(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil { // as a careless tool would
		t.Fatal(err)
	}
	second, err := Unix(path)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	_ = first.Close()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatalf("the second server's socket is gone: %v", err)
	}
	_ = c.Close()
	_ = second.Close()
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Errorf("the second socket outlived its listener: %v", err)
	}
}

// Servers started together on one stale socket take turns: exactly one
// listens, the others are told a server listens there.
func TestUnixStartedTogetherOnAStaleSocket(t *testing.T) {
	path := filepath.Join(socktest.ShortDir(t), "s.sock")
	stale, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	stale.(*net.UnixListener).SetUnlinkOnClose(false)
	_ = stale.Close()
	const n = 8
	got := make(chan net.Listener, n)
	for range n {
		go func() {
			ln, err := Unix(path)
			if err != nil && !strings.Contains(err.Error(), "listens on the Unix socket") {
				t.Errorf("unexpected: %v", err)
			}
			got <- ln
		}()
	}
	listening := 0
	for range n {
		if ln := <-got; ln != nil {
			listening++
			defer ln.Close()
		}
	}
	if listening != 1 {
		t.Errorf("%d servers listen on one socket", listening)
	}
}

// A symbolic link at the path, even to a live socket, is refused as one.
func TestUnixRefusesASymlink(t *testing.T) {
	dir := socktest.ShortDir(t)
	live, err := Unix(filepath.Join(dir, "live.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	link := filepath.Join(dir, "link.sock")
	if err := os.Symlink(filepath.Join(dir, "live.sock"), link); err != nil {
		t.Fatal(err)
	}
	if _, err := Unix(link); err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
		t.Errorf("over a symlink: %v", err)
	}
}
