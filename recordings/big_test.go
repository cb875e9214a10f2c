package recordings

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// bigEnv runs the tests that write and read recordings of hundreds of
// megabytes; the default run proves the same with lowered limits.
const bigEnv = "MCPSCOPE_GIGABYTE_TESTS"

// allocReading is how many bytes reading the recording at path to its end
// allocates, with the frames it read and the corrupt lines it skipped.
func allocReading(t *testing.T, path string) (alloc uint64, frames int64, d Damage) {
	t.Helper()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d, err = Walk(r, func(*Record) error { return nil })
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	return after.TotalAlloc - before.TotalAlloc, r.Frames(), d
}

// The largest frame mcpscope writes (64 MiB of control bytes, a 384 MiB
// line) reads within a few times 64 MiB, and a 400 MB line, past what a
// frame keeps, is skipped within about one frame's worth.
func TestGigabyteLinesReadBounded(t *testing.T) {
	if os.Getenv(bigEnv) == "" {
		t.Skip("set " + bigEnv + "=1 to write and read recordings of hundreds of megabytes")
	}
	dir := t.TempDir()
	frame := filepath.Join(dir, "frame.jsonl")
	f, err := os.Create(frame)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := NewWriter(f, Header{Transport: "stdio"}, Options{NoRedact: true})
	w.Append(&capture.Frame{Dir: capture.In, Chan: capture.Channel{Kind: capture.Stderr}, Raw: bytes.Repeat([]byte{1}, maxFrameKeep), Enc: proto.EncText})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	alloc, frames, d := allocReading(t, frame)
	t.Logf("a 64 MiB frame of control bytes: %d MiB allocated reading it", alloc>>20)
	if frames != 1 || d.Skipped != 0 || alloc > 3*maxFrameKeep {
		t.Errorf("%d frames, %d skipped, %d MiB allocated", frames, d.Skipped, alloc>>20)
	}

	long := filepath.Join(dir, "long.jsonl")
	f, err = os.Create(long)
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriter(f)
	bw.WriteString(`{"format":"mcpscope-recording","version":1,"transport":"stdio"}` + "\n")
	bw.WriteString(`{"k":"frame","dir":"in","ch":"control","text":"`)
	piece := bytes.Repeat([]byte("a"), 1<<20)
	for range 400 {
		bw.Write(piece)
	}
	bw.WriteString(`"}` + "\n" + `{"k":"frame","dir":"in","ch":"control","text":"ok"}` + "\n")
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	alloc, frames, d = allocReading(t, long)
	t.Logf("a 400 MiB line: %d MiB allocated skipping it", alloc>>20)
	if frames != 1 || d.Skipped != 1 || alloc > 2*maxFrameKeep+8<<20 {
		t.Errorf("%d frames, %d skipped, %d MiB allocated", frames, d.Skipped, alloc>>20)
	}
}
