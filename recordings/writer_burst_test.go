package recordings

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// countingFile counts the writes that reach it and keeps their bytes.
type countingFile struct {
	mu     sync.Mutex
	writes int
	buf    bytes.Buffer
}

func (c *countingFile) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes++
	return c.buf.Write(p)
}

func (c *countingFile) state() (int, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writes, c.buf.String()
}

// A burst of control messages appended under Hold reaches the file in one
// write, once released, and none of them wakes the file writer before.
func TestHeldBurstGoesInOneWrite(t *testing.T) {
	file := &countingFile{}
	w, _ := NewWriter(file, Header{}, Options{flushEvery: time.Hour})
	defer w.Close()
	if n, _ := file.state(); n != 1 {
		t.Fatalf("%d writes for the header, want 1", n)
	}
	w.Hold()
	for i := range 20 {
		w.Append(&capture.Frame{Dir: capture.Out, Raw: fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i)})
	}
	if len(w.wake) != 0 || !w.owed.Load() {
		t.Fatalf("a held control message woke the file writer")
	}
	w.Release()
	for deadline := time.Now().Add(guard.Hang); ; time.Sleep(time.Millisecond) {
		n, text := file.state()
		if bytes.Contains([]byte(text), []byte(`\"id\":19`)) {
			if n != 2 {
				t.Fatalf("the burst took %d writes, want 1", n-1)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the burst never reached the file within %s", guard.Hang)
		}
	}
}
