package cli

import (
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// Floods of the MCP-Flow control messages the client's transport acts on:
// the heap and the goroutines stay bounded, the run ends with the exit code
// of what the server did, and a warning says what was ignored.
func TestFlowE2EControlFloods(t *testing.T) {
	// Before the limits, 150k $/streamError took over 100 MiB more heap, and
	// 150k $/shutdown as many goroutines.
	count := 150_000
	if guard.Race {
		// The flood comes in with nothing to restart the idle timer, so
		// --timeout bounds how long the client may take to read it: under
		// the race detector on a loaded machine 150k took over 30 s, read
		// at 1,000 to 3,000 a second. 10k still makes a goroutine a
		// message plain; the heap bound is the run without the detector's
		// to prove.
		count = 10_000
	}
	d := flowDemo(t)
	for _, tc := range []struct {
		mode   string
		exit   int
		says   []string // lines of stderr, in order
		result string
	}{
		{"streamerror_flood", ExitOK, []string{
			fmt.Sprintf(`^warning: the server sent %d \$/streamError naming no stream mcpscope was reading or waiting for \(never opened nor referred to, or already reported\); they were ignored$`, count-16),
		}, fmt.Sprintf("flood sent: %d $/streamError", count)},
		{"shutdown_flood", ExitConnection, []string{
			`^warning: the server sent \$/shutdown \d+ more times after the first; they were ignored$`,
			`^error: connection lost: the server shut the MCP-Flow session down \(\$/shutdown\)$`,
		}, ""},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			runtime.GC()
			before := runtime.NumGoroutine()
			heap := flowtest.SampleHeap(10 * time.Millisecond)
			// Nothing restarts the idle timer while the flood comes in, so
			// --timeout is the wait for the answer after it: a run that
			// waits that long exits 4, saying it had no answer.
			r := flowCall(t, d, toolCall(t, "misbehave", map[string]any{"mode": tc.mode, "count": count}), "--timeout", guard.Hang.String())
			peak := heap.Stop()
			if peak >= 64<<20 {
				t.Fatalf("peak HeapInuse %d MiB, want < 64 MiB", peak>>20)
			}
			if g := heap.PeakGoroutines(); g > before+200 {
				t.Fatalf("%d goroutines at the peak, %d before: a goroutine per message?", g, before)
			}
			r.mustExit(t, tc.exit)
			checkStderrLines(t, r, false)
			lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
			if len(lines) != len(tc.says) {
				t.Fatalf("stderr has %d lines, want %d:\n%s", len(lines), len(tc.says), r.stderr)
			}
			for i, want := range tc.says {
				if !regexp.MustCompile(want).MatchString(lines[i]) {
					t.Fatalf("stderr line %d %q does not match %s:\n%s", i+1, lines[i], want, r.stderr)
				}
			}
			if tc.exit == ExitOK {
				checkResultOnly(t, r, tc.result)
			} else if r.stdout != "" {
				t.Fatalf("a failed run printed on stdout: %s", r.stdout)
			}
			t.Logf("peak HeapInuse %.1f MiB, goroutines %d (before %d); stderr: %s",
				float64(peak)/(1<<20), heap.PeakGoroutines(), before, strings.TrimSpace(r.stderr))
		})
	}
}
