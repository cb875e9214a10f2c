package recordings

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto"
)

// numbered is control frame n of a run: a notification whose data is n.
func numbered(n int) *capture.Frame {
	raw := fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":%d}}`+"\n", n)
	return &capture.Frame{Time: time.Now(), Dir: capture.In, Conn: "stdio", Raw: raw, Size: len(raw), Enc: proto.EncJSON}
}

// dataOf returns the number numbered put in a recorded frame.
func dataOf(t *testing.T, f *capture.Frame) int {
	t.Helper()
	_, tail, ok := bytes.Cut(f.Raw, []byte(`"data":`))
	n, err := strconv.Atoi(string(bytes.TrimRight(tail, "}\n")))
	if !ok || err != nil {
		t.Fatalf("not a numbered frame: %q", f.Raw)
	}
	return n
}

// The buffer of a stream chunk or of a binary message, which a transport
// reuses once Append returns (ReleasesUnheld), is recorded as it was when
// appended; frames, stream
// notes and SSE events keep the order they came in, each SSE event
// pointing at the frame before it.
func TestQueuedRecordsKeepTheirBytesAndOrder(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{}, Options{Number: true, flushEvery: time.Hour})
	key := capture.StreamKey{Conn: "wt", ReqID: 4, Tag: 1}
	c := chunk(key, 'a', 16)
	w.Append(c)
	copy(c.Raw[2:], bytes.Repeat([]byte{'z'}, 16)) // the transport reads the next chunk into it
	w.MarkStream(key, capture.StreamDone, nil)
	bin := &capture.Frame{Time: time.Now(), Dir: capture.In, Conn: "wt", Raw: []byte("\x00\x01binary chunk"), Enc: proto.EncBinary}
	w.Append(bin)
	copy(bin.Raw, "\x00\x01reused buffer")
	w.Append(numbered(1))
	w.SSEEvent("stdio", 0, 10, "e1")
	w.Append(numbered(2))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	_, recs, err := readAll(t, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		switch r.Kind {
		case RecFrame:
			got = append(got, fmt.Sprintf("frame %d %s", r.LiveSeq, r.Frame.Raw[2:]))
		case RecSSEEvent:
			got = append(got, fmt.Sprintf("event of %d", r.LiveSeq))
		case RecMark:
			got = append(got, "mark")
		}
	}
	want := []string{
		"frame 1 " + string(bytes.Repeat([]byte{'a'}, 16)),
		"mark",
		"frame 2 binary chunk",
		"frame 3 " + string(numbered(1).Raw[2:]),
		"event of 3",
		"frame 4 " + string(numbered(2).Raw[2:]),
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("records:\n%q\nwant\n%q", got, want)
	}
}

// crashChildEnv names the recording a child of
// TestKilledRecordingLosesAtMostTheQueue writes before it is killed.
const crashChildEnv = "MCPSCOPE_RECORDINGS_CRASH_CHILD"

// crashFrames is how many frames that child appends.
const crashFrames = 40_000

// A process killed while recording (SIGKILL: no Close, no end line)
// leaves a recording that reads whole up to a torn last line at most, its
// frames in order and none missing before the last one kept, and it loses
// at most the frames not yet handed to the file: the queue
// (maxQueued frames) and the batch being written (as many).
func TestKilledRecordingLosesAtMostTheQueue(t *testing.T) {
	if path := os.Getenv(crashChildEnv); path != "" {
		w, err := Create(path, Header{Transport: "stdio"}, Options{})
		if err != nil {
			os.Exit(2)
		}
		for n := 1; n <= crashFrames; n++ {
			w.Append(numbered(n))
		}
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the kill lands
	}
	path := filepath.Join(t.TempDir(), "killed"+Ext)
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestKilledRecordingLosesAtMostTheQueue$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed as planned: %v", err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, recs, err := readAll(t, b)
	var torn *TruncatedError
	if err != nil && !errors.As(err, &torn) {
		t.Fatalf("the killed recording does not read: %v", err)
	}
	kept := 0
	for _, r := range recs {
		if r.Kind != RecFrame {
			continue
		}
		if n := dataOf(t, r.Frame); n != kept+1 {
			t.Fatalf("frame %d follows frame %d", n, kept)
		}
		kept++
	}
	t.Logf("kept %d", kept)
	if lost := crashFrames - kept; lost > 2*maxQueued {
		t.Errorf("the kill lost %d frames of %d, more than the bound of %d", lost, crashFrames, 2*maxQueued)
	}
}
