package recordings

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
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

// Recording a message allocates nothing: its line is built and encoded in
// memory the Writer reuses, its bytes written as text without a copy.
func TestAppendAllocatesNothing(t *testing.T) {
	w, _ := NewWriter(io.Discard, Header{Proxy: "p"}, Options{SecretHeaders: []string{"Authorization"}})
	defer w.Close()
	raw := []byte(`{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"Echo: hi"}]}}` + "\n")
	m, err := jsonrpc.DecodeMessage(raw[:len(raw)-1])
	if err != nil {
		t.Fatal(err)
	}
	f := capture.Frame{Dir: capture.In, Raw: raw, Size: len(raw), Enc: proto.EncJSON, Msg: m, Fields: jsonrpc.LineFields(raw), Time: time.Now()}
	if n := testing.AllocsPerRun(1000, func() { w.Append(&f) }); n >= 1 {
		t.Errorf("%.1f allocations per message recorded, want none", n)
	}
}
