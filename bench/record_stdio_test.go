//go:build linux

package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/recordings"
)

// BenchmarkStdioFloodRecordedVsNot runs `mcpscope call` of a
// notification_flood of 200,000 lines against the demo over stdio
// (`mcpscope serve --stdio`), recording the session (--record FILE) and
// not, in turn in the same run, each call a process of its own with a
// server of its own, then reads each recording back and fails unless it
// holds every line. It reports both rates, by wall time from start to
// exit, their ratio, recorded ÷ not recorded (target ≥ 0.9), and the
// ratio of the CPU time the two processes spent.
func BenchmarkStdioFloodRecordedVsNot(b *testing.B) {
	bin := buildMcpscope(b)
	params := fmt.Sprintf(`{"name":"misbehave","arguments":{"mode":%q,"count":%d}}`, demo.ModeNotificationFlood, floodCount)
	call := func(flags ...string) []string {
		argv := append([]string{bin, "call"}, flags...)
		return append(argv, "tools/call", params, "--", bin, "serve", "--stdio")
	}
	dir := b.TempDir()
	var plain, rec transferCost
	runs := 0
	for b.Loop() {
		path := filepath.Join(dir, fmt.Sprintf("flood-%d%s", runs, recordings.Ext))
		record := func() {
			rec.add(b, call("--record", path))
			if got := countFloodLines(b, path); got != floodCount {
				b.Fatalf("the recording holds %d flood lines of %d", got, floodCount)
			}
			_ = os.Remove(path)
		}
		inTurn(runs, record, func() { plain.add(b, call()) })
		runs++
	}
	reportFlood(b, runs, plain, rec)
}

// add runs argv to completion and adds its wall time and the CPU time of
// the processes it waited for (itself and its server) to c.
func (c *transferCost) add(b *testing.B, argv []string) {
	b.Helper()
	cpu0 := childrenCPU(b)
	c.wall += wall(b, argv)
	c.cpu += childrenCPU(b) - cpu0
}

// childrenCPU returns the user+system CPU time of the children of this
// process waited for so far, and of the children they waited for.
func childrenCPU(b *testing.B) time.Duration { return rusageCPU(b, syscall.RUSAGE_CHILDREN) }
