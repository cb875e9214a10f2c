package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/demo"
)

// The demo's time-limit misbehave modes over MCP-Flow, through the command
// line: each run ends with exit 4 and one error line naming the limit and
// what the server did, within the test's own bound.

// flowCallWithin is flowCall bounded by the test's own wait.
func flowCallWithin(t *testing.T, bound time.Duration, mode string, flags ...string) result {
	t.Helper()
	d := flowDemo(t)
	args := append([]string{"call", "--cert-hash", d.CertHash()}, flags...)
	return mcpscopeWithin(t, bound, append(args, "tools/call", toolCall(t, "misbehave", map[string]any{"mode": mode}), d.Target())...)
}

func TestFlowTimeoutModes(t *testing.T) {
	for _, tc := range []struct {
		mode  string
		flags []string
		bound time.Duration // the limit, and a margin far below Close's 10 s drain
		says  string        // the first error line
	}{
		{demo.ModeStreamNeverOpened, []string{"--timeout", "2s"}, 7 * time.Second,
			`^error: tools/call \(id 2\) timed out waiting for its execution streams: execution stream 2/1, which the result refers to, was not opened within 2s$`},
		{demo.ModeStreamStall, []string{"--timeout", "2s"}, 7 * time.Second,
			`^error: tools/call \(id 2\) timed out waiting for its execution streams: execution stream 2/1 stalled: no bytes for 2s after 4096$`},
		{demo.ModeStreamStall, []string{"--timeout", "1m", "--max-time", "3s"}, 8 * time.Second,
			`^error: tools/call \(id 2\) timed out after its max time of 3s, whatever the streams brought: execution stream 2/1 was still open after 4096 bytes$`},
		{demo.ModeProgressForever, []string{"--progress", "--timeout", "2s", "--max-time", "3s"}, 8 * time.Second,
			`^error: tools/call \(id 2\) timed out after its max time of 3s, whatever progress said; sent a cancellation$`},
	} {
		t.Run(tc.mode+strings.Join(tc.flags, ""), func(t *testing.T) {
			t.Parallel()
			r := flowCallWithin(t, tc.bound, tc.mode, tc.flags...)
			r.mustExit(t, ExitTimeout)
			r.mustSayFirst(t, tc.says)
			checkStderrLines(t, withoutProgress(r), false)
			if r.stdout != "" {
				t.Fatalf("a failed run printed on stdout: %s", r.stdout)
			}
		})
	}
}

// withoutProgress drops the --progress lines of stderr.
func withoutProgress(r result) result {
	var keep []string
	for _, ln := range strings.Split(r.stderr, "\n") {
		if !strings.HasPrefix(ln, "progress ") {
			keep = append(keep, ln)
		}
	}
	r.stderr = strings.Join(keep, "\n")
	return r
}

// A server that stops reading the control stream grants no more
// flow-control credit: the 2 MB request that follows cannot be sent whole,
// and --timeout ends it with exit 4, saying that the server stopped
// reading.
//
// Its bound is a time, and the 2 MB send is heavy under the race detector,
// so it stays out of the parallel tests.
func TestFlowTimeoutCoversSendingWithoutCredit(t *testing.T) {
	d := flowDemo(t)
	pad, err := json.Marshal(map[string]any{"pad": strings.Repeat("x", 2<<20)})
	if err != nil {
		t.Fatal(err)
	}
	answers := writeAnswers(t, "steps:\n  - method: ping\n    params: "+string(pad)+"\n")
	// The bound leaves room for the race detector on a loaded machine and
	// stays under the 2 s limit plus Close's 10 s drain, which a send that
	// blocked the close would cost.
	r := mcpscopeWithin(t, 11*time.Second, "script", "--cert-hash", d.CertHash(), "--timeout", "2s", "--answers", answers,
		"--tool", "misbehave", "--args", `{"mode":"`+demo.ModeStopReading+`"}`, d.Target())
	r.mustExit(t, ExitTimeout)
	r.mustSayFirst(t, `^error: ping \(id \d+\) timed out after 2s while it was being sent: the server stopped reading: only \d+ of the \d+ bytes of a frame went into the control stream in time; nothing more can be sent, since the rest would have to go first`)
	if !strings.Contains(r.stdout, "stopped reading the control stream") {
		t.Fatalf("the misbehave step did not answer first: %q", r.stdout)
	}
}
