package ui

import (
	"io"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
)

// minLatencySamples is how many keys each phase of the latency benchmark
// sends at least.
const minLatencySamples = 400

// detailSeq finds the Seq in the detail pane's title.
var detailSeq = regexp.MustCompile(`Detail · seq (\d+)\b`)

// showsSeq is the effect "the detail pane shows frame seq".
func showsSeq(seq uint64) func(string) bool {
	want := strconv.FormatUint(seq, 10)
	return func(s string) bool {
		m := detailSeq.FindStringSubmatch(s)
		return m != nil && m[1] == want
	}
}

// BenchmarkKeyLatencyUnderFlood measures, in one run, the time from a key
// sent to the real program (p.Send of a KeyPressMsg) to the first render
// that shows its effect, idle and then under a notification_flood of the
// demo over MCP-Flow (the program connected to it, the store at its
// defaults, the split layout, as `mcpscope demo` starts). The keys follow
// the newest frame and stop following, move the selection up and down and
// open and close the help screen. It reports p50 and p99 of both phases,
// the flood's p99 over the idle p99, and the rate the flood reached.
func BenchmarkKeyLatencyUnderFlood(b *testing.B) {
	d := flowtest.Start(b, flow.Config{})
	link := newFloodLink(d)
	probe := newFloodProbe(New(Config{Store: capture.NewStore(capture.Config{}), Dial: link.dial, Target: d.Target(),
		OnConnect: []Request{ListTools}}))
	p := tea.NewProgram(probe, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignals(), tea.WithWindowSize(170, 50))
	ran := make(chan error, 1)
	go func() {
		_, err := p.Run()
		ran <- err
	}()
	b.Cleanup(func() {
		p.Quit()
		if err := <-ran; err != nil {
			b.Errorf("the program failed: %v", err)
		}
		_ = probe.Close()
	})
	flowtest.Eventually(b, "the program connects and lists the tools", func() bool {
		return lineWith(probe.screenText(), "MCP-Flow READY") && lineWith(probe.screenText(), "result · tools/list")
	})

	// Each round of keys follows the newest frame, stops following (the
	// selection stays on the frame before the newest), moves the selection
	// up and down and opens and closes the help screen: a round moves
	// around a frame a flood has not pushed out of the store yet.
	var seq uint64
	unfollowed := func(s string) bool {
		m := detailSeq.FindStringSubmatch(s)
		if m == nil || lineWith(s, "· follow") {
			return false
		}
		n, err := strconv.ParseUint(m[1], 10, 64)
		seq = n
		return err == nil && n >= 2
	}
	keys := []struct {
		key    string
		effect func(string) bool
	}{
		{"f", func(s string) bool { return lineWith(s, "· follow") }},
		{"k", unfollowed},
		{"k", func(s string) bool { return showsSeq(seq - 1)(s) }},
		{"j", func(s string) bool { return showsSeq(seq)(s) }},
		{"?", func(s string) bool { return lineWith(s, "filter words (all must match)") }},
		{"?", func(s string) bool { return showsSeq(seq)(s) }},
	}
	probe.press(b, p.Send, "k", unfollowed) // a round starts not following
	samples := max(b.N, minLatencySamples)
	phase := func() []time.Duration {
		out := make([]time.Duration, 0, samples)
		for i := range samples {
			k := keys[i%len(keys)]
			out = append(out, probe.press(b, p.Send, k.key, k.effect))
			time.Sleep(time.Duration(i%7) * time.Millisecond) // keys land at any point of a refresh
		}
		slices.Sort(out)
		return out
	}

	b.ResetTimer()
	idle := phase()
	stop := link.flood(b)
	flooded := phase()
	report := stop()
	b.StopTimer()

	pct := func(d []time.Duration, q float64) float64 {
		return float64(d[int(q*float64(len(d)-1))]) / float64(time.Millisecond)
	}
	b.ReportMetric(pct(idle, 0.50), "idle-p50-ms")
	b.ReportMetric(pct(idle, 0.99), "idle-p99-ms")
	b.ReportMetric(pct(flooded, 0.50), "flood-p50-ms")
	b.ReportMetric(pct(flooded, 0.99), "flood-p99-ms")
	b.ReportMetric(pct(flooded, 0.99)/pct(idle, 0.99), "p99-ratio")
	b.ReportMetric(report.PerSecond, "flood-msgs/s")
}
