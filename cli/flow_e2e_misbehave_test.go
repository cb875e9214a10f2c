package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
)

// Every misbehave mode of the demo, through the command line: one clear
// sentence on stderr naming what the server did, the exit code its kind of
// failure has (5 protocol violation, 3 connection, 0 when the result still
// came), no panic; the flood keeps memory bounded and the result arrives.
func TestFlowE2EMisbehaveModes(t *testing.T) {
	d := flowDemo(t)
	for _, tc := range []struct {
		mode   string
		exit   int
		says   string // a line of stderr
		result string // in the result JSON, when the call succeeds
	}{
		{"lying_length", ExitProtocol, `^error: connection lost: protocol violation: the server sent a control frame whose length prefix claims 4294967295 bytes, over the 16777216-byte limit; the control stream cannot be resynchronised, so the session was closed$`, ""},
		{"wrong_encoding", ExitOK, `^warning: -32003 Encoding Mismatch: the server sent a json frame after cbor was negotiated; it was not delivered$`, "misbehaved: sent a notifications/message frame in json"},
		{"foreign_stream", ExitOK, `^warning: -32002 Stream Injection: the server opened an execution stream for request 4294967295 tag 1, but that request is not in flight; the stream was reset$`, "which is not in flight"},
		{"stream_error", ExitConnection, `^error: execution stream 2/1 failed after \d+ bytes: the server reported "misbehave: stream reset on purpose mid-transfer"`, ""},
		{"datagram_flood", ExitOK, `^warning: the server flooded the session with datagrams: \d+ arrived, up to \d+ within one second; .*$`, "flood sent: 50000 log datagrams"},
		// Which of the client's readers sees the closed connection first
		// decides between the two wordings; both name the server's reason.
		{"drop", ExitConnection, `^error: connection lost: the MCP-Flow session ended: (the server closed the QUIC connection \(code 0x102: "misbehave drop"\)|the connection to the server broke \(H3_INTERNAL_ERROR: misbehave drop\))$`, ""},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			heap := flowtest.SampleHeap(10 * time.Millisecond)
			r := flowCall(t, d, toolCall(t, "misbehave", map[string]any{"mode": tc.mode}))
			peak := heap.Stop()
			r.mustExit(t, tc.exit)
			checkStderrLines(t, r, false)
			if !regexp.MustCompile("(?m)" + tc.says).MatchString(r.stderr) {
				t.Fatalf("stderr does not say %s:\n%s", tc.says, r.stderr)
			}
			if tc.exit == ExitOK {
				checkResultOnly(t, r, tc.result)
			} else if r.stdout != "" {
				t.Fatalf("a failed run printed on stdout: %s", r.stdout)
			}
			if peak >= 100<<20 {
				t.Fatalf("peak HeapInuse %d MiB, want < 100 MiB", peak>>20)
			}
			t.Logf("peak HeapInuse %.1f MiB; stderr: %s", float64(peak)/(1<<20), strings.TrimSpace(r.stderr))
		})
	}
}

// A stream the server resets with $/streamError fails the run with exit 3
// and the server's reason; the trace marks the stream as an error, and the
// bytes that arrived before the reset are saved as they came.
func TestFlowE2EStreamErrorExitsConnection(t *testing.T) {
	d := flowDemo(t)
	dir := t.TempDir()
	r := flowCall(t, d, toolCall(t, "misbehave", map[string]any{"mode": "stream_error"}), "--trace", "--stream-out", dir)
	r.mustExit(t, ExitConnection)
	checkStderrLines(t, r, true)
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	last := lines[len(lines)-1]
	if !regexp.MustCompile(`^error: execution stream 2/1 failed after \d+ bytes: the server reported "misbehave: stream reset on purpose mid-transfer" \(the server reset the stream \(code 1\)\)$`).MatchString(last) {
		t.Fatalf("the last stderr line is not the failure: %q", last)
	}
	for _, want := range []string{`← control \d+B notification \$/streamError$`, `← stream 2/1 error \d+B in \S+: execution stream 2/1 failed`} {
		if !regexp.MustCompile("(?m)" + want).MatchString(r.stderr) {
			t.Fatalf("the trace lacks %s:\n%s", want, r.stderr)
		}
	}
	got, err := os.ReadFile(filepath.Join(dir, "2-1.bin"))
	if err != nil || len(got) > 4096 || !bytes.Equal(got, flowtest.Generated(len(got), 0)) {
		t.Fatalf("the saved prefix (%d bytes, %v) is not the generated data", len(got), err)
	}
}
