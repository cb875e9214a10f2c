//go:build linux

package bench

import (
	"fmt"
	"os"
	"path/filepath"
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
// exit, and their ratio, recorded ÷ not recorded (target ≥ 0.9).
func BenchmarkStdioFloodRecordedVsNot(b *testing.B) {
	bin := buildMcpscope(b)
	params := fmt.Sprintf(`{"name":"misbehave","arguments":{"mode":%q,"count":%d}}`, demo.ModeNotificationFlood, floodCount)
	call := func(flags ...string) []string {
		argv := append([]string{bin, "call"}, flags...)
		return append(argv, "tools/call", params, "--", bin, "serve", "--stdio")
	}
	dir := b.TempDir()
	var plainWall, recWall time.Duration
	runs := 0
	for b.Loop() {
		path := filepath.Join(dir, fmt.Sprintf("flood-%d%s", runs, recordings.Ext))
		record := func() {
			recWall += wall(b, call("--record", path))
			if got := countFloodLines(b, path); got != floodCount {
				b.Fatalf("the recording holds %d flood lines of %d", got, floodCount)
			}
			_ = os.Remove(path)
		}
		inTurn(runs, record, func() { plainWall += wall(b, call()) })
		runs++
	}
	msgs := float64(floodCount * runs)
	b.ReportMetric(msgs/recWall.Seconds(), "recorded-msgs/s")
	b.ReportMetric(msgs/plainWall.Seconds(), "plain-msgs/s")
	b.ReportMetric(plainWall.Seconds()/recWall.Seconds(), "ratio")
}
