//go:build linux

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/recordings"
)

// recordedFlow is mcpscope's MCP-Flow stack with its frames going to a
// store and a recording, as the TUI records.
type recordedFlow struct {
	*flowClient
	rec  *recordings.Writer
	path string
}

// dialRecorded connects a recording client to srv.
func dialRecorded(b *testing.B, srv *flow.Server, streamSink func(capture.StreamKey) (io.WriteCloser, error)) *recordedFlow {
	b.Helper()
	path := filepath.Join(b.TempDir(), "bench"+recordings.Ext)
	rec, err := recordings.Create(path, recordings.Header{Target: srv.URL(), Transport: "wt"}, recordings.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = rec.Close() })
	store := capture.NewStore(capture.DefaultConfig())
	c := dialFlowTo(b, srv, capture.Tee(store, rec), nil, 0, streamSink)
	return &recordedFlow{flowClient: c, rec: rec, path: path}
}

// BenchmarkReadFileRecordedVsNot compares the 2 GiB read_file execution
// stream over loopback MCP-Flow read by mcpscope's stack with a recording
// teed beside its store (as the TUI records by default) and without,
// alternating in the same run. "ratio" is recorded ÷ not recorded (target
// ≥ 0.9) and "cpu-ratio" the same of the CPU time the process spent, what
// the ratio comes to on a machine with no core to spare; "recording-MiB"
// is the size of the recording after the runs (each stream kept whole to
// 64 MiB, then totals and its last 1 MiB).
func BenchmarkReadFileRecordedVsNot(b *testing.B) {
	srv := flowtest.Start(b, flow.Config{})
	plainSink, recSink := &payloadCounter{}, &payloadCounter{}
	plain := dialFlow(b, srv.Server, nil, 0, plainSink.open)
	recorded := dialRecorded(b, srv.Server, recSink.open)
	var plainCost, recCost transferCost
	runPlain := func() { plainCost.measured(b, func() time.Duration { return mcpscopeReadFile(b, plain, plainSink) }) }
	runRec := func() {
		recCost.measured(b, func() time.Duration { return mcpscopeReadFile(b, recorded.flowClient, recSink) })
	}
	runs := 0
	for b.Loop() {
		inTurn(runs, runRec, runPlain)
		runs++
	}
	_ = recorded.rec.Close()
	st, err := os.Stat(recorded.path)
	if err != nil {
		b.Fatal(err)
	}
	mb := float64(readFileSize*int64(runs)) / 1e6
	b.ReportMetric(mb/recCost.wall.Seconds(), "recorded-MB/s")
	b.ReportMetric(mb/plainCost.wall.Seconds(), "plain-MB/s")
	b.ReportMetric(plainCost.wall.Seconds()/recCost.wall.Seconds(), "ratio")
	b.ReportMetric(plainCost.cpu.Seconds()/recCost.cpu.Seconds(), "cpu-ratio")
	b.ReportMetric(mib(uint64(st.Size())), "recording-MiB")
}

// floodCount is how many notifications one measured flood sends.
const floodCount = 200_000

// floodOnce runs a notification_flood of floodCount lines through c and
// returns the wall time until its result.
func floodOnce(b *testing.B, c *flowClient) time.Duration {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), flowHangGuard)
	defer cancel()
	params := json.RawMessage(fmt.Sprintf(`{"name":"misbehave","arguments":{"mode":%q,"count":%d}}`, demo.ModeNotificationFlood, floodCount))
	start := time.Now()
	if _, err := c.session.Call(ctx, "tools/call", params); err != nil {
		b.Fatalf("notification_flood: %v", err)
	}
	return time.Since(start)
}

// BenchmarkFloodRecordedVsNot runs a notification_flood of 200,000 lines
// of the demo over MCP-Flow through mcpscope's stack with a recording and
// without, alternating in the same run, then reads the recording back and
// fails unless it holds every line. It reports the recorded rate
// (target ≥ 50,000 messages/s), the plain rate, their ratio and the ratio
// of the CPU time the process spent (server included).
func BenchmarkFloodRecordedVsNot(b *testing.B) {
	srv := flowtest.Start(b, flow.Config{})
	plain := dialFlow(b, srv.Server, nil, 0, nil)
	recorded := dialRecorded(b, srv.Server, nil)
	var plainCost, recCost transferCost
	runs := 0
	for b.Loop() {
		inTurn(runs,
			func() { recCost.measured(b, func() time.Duration { return floodOnce(b, recorded.flowClient) }) },
			func() { plainCost.measured(b, func() time.Duration { return floodOnce(b, plain) }) })
		runs++
	}
	_ = recorded.rec.Close()
	if got := countFloodLines(b, recorded.path); got != int64(floodCount*runs) {
		b.Fatalf("the recording holds %d flood lines of %d", got, floodCount*runs)
	}
	reportFlood(b, runs, plainCost, recCost)
}

// reportFlood reports the rates of runs floods recorded and not, and the
// ratios of their wall and CPU times.
func reportFlood(b *testing.B, runs int, plain, rec transferCost) {
	msgs := float64(floodCount * runs)
	b.ReportMetric(msgs/rec.wall.Seconds(), "recorded-msgs/s")
	b.ReportMetric(msgs/plain.wall.Seconds(), "plain-msgs/s")
	b.ReportMetric(plain.wall.Seconds()/rec.wall.Seconds(), "ratio")
	b.ReportMetric(plain.cpu.Seconds()/rec.cpu.Seconds(), "cpu-ratio")
}

// countFloodLines counts the flood's notifications/message frames in a
// recording.
func countFloodLines(b *testing.B, path string) int64 {
	b.Helper()
	r, err := recordings.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	var n int64
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			b.Fatal(err)
		}
		if f := rec.Frame; rec.Kind == recordings.RecFrame && f.Msg != nil && f.Msg.Method == "notifications/message" &&
			strings.Contains(string(f.Msg.Params), `"logger":"`+demo.FloodLogger+`"`) {
			n++
		}
	}
}
