package media

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// Saving onto a fifo, a directory or a link to a fifo is refused at once,
// replace or not: nothing is opened, nothing waits for a reader.
func TestSaveRefusesWhatIsNoFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "content-1.png")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.png")
	if err := os.Symlink("content-1.png", link); err != nil {
		t.Fatal(err)
	}
	it := Item{Kind: "blob", Base64: "AAEC"}
	for _, path := range []string{fifo, link, dir} {
		for _, replace := range []bool{false, true} {
			done := make(chan error, 1)
			go func() { _, err := it.Save(path, replace); done <- err }()
			select {
			case err := <-done:
				if err == nil || errors.Is(err, ErrExists) {
					t.Errorf("%s (replace %v): %v, want it refused as no regular file", path, replace, err)
				}
			case <-time.After(guard.Hang):
				t.Fatalf("%s (replace %v): Save still waits", path, replace)
			}
		}
	}
}
