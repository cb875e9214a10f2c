//go:build linux

package bench

import (
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// proxyLatencyCalls is how many un-pipelined calls each side makes per
// round to measure the latency of one call.
const proxyLatencyCalls = 50

// BenchmarkProxyStdioEcho measures what `mcpscope proxy` costs a host on
// stdio: the official Go SDK client calls a server's echo tool straight
// and through the proxy (recording on, as by default), in turn in the
// same run, each with a server process of its own. The servers are
// mcpscope's demo (`mcpscope serve --stdio`: quiet) and mark3labs/mcp-go's
// everything example, which writes five lines (about 1.5 KiB) on stderr
// per call: the proxy passes and records those too. It reports:
//
//   - "direct-req/s", "proxied-req/s" and "ratio" (proxied ÷ direct;
//     target ≥ 0.8) for pipelined calls, echoInFlight at a time,
//     "round-ratio-p50", the median of the rounds' own ratios (the two
//     sides of a round run one right after the other, so that a burst of
//     the machine's other work weighs on one round, not on one side), and
//     "proxy-cpu-us/req", the CPU time of the proxy process per call (its
//     request and its answer), which a loaded machine does not inflate;
//   - "direct-p50-us" and "proxied-p50-us", the median of un-pipelined
//     calls, "added-us/call" their difference and "added-us/msg" half of
//     it: a call is two messages through the proxy, its request and its
//     answer (target < 200).
func BenchmarkProxyStdioEcho(b *testing.B) {
	bin := buildMcpscope(b)
	b.Run("demo", func(b *testing.B) { proxyEcho(b, bin, []string{bin, "serve", "--stdio"}) })
	b.Run("mark3labs", func(b *testing.B) { proxyEcho(b, bin, peertest.Mark3labsEverything(b)) })
}

// proxyEcho runs BenchmarkProxyStdioEcho against the server argv, with
// the mcpscope binary bin as the proxy.
func proxyEcho(b *testing.B, bin string, argv []string) {
	direct, stopDirect := goSDKEchoOver(b, &mcp.CommandTransport{Command: exec.Command(argv[0], argv[1:]...)}, mark3labsEcho)
	defer stopDirect()
	proxy := exec.Command(bin, append([]string{"proxy", "--name", "bench", "--"}, argv...)...)
	proxy.Env = append(os.Environ(), "XDG_STATE_HOME="+b.TempDir()) // the recording goes there
	proxied, stopProxied := goSDKEchoOver(b, &mcp.CommandTransport{Command: proxy}, mark3labsEcho)
	defer stopProxied()

	pipeline(b, 200, echoInFlight, direct) // warm both
	pipeline(b, 200, echoInFlight, proxied)
	proxyCPU := func() time.Duration { return processCPUOf(b, proxy.Process.Pid) }
	var wallDirect, wallProxied, cpuProxy time.Duration
	var latDirect, latProxied []time.Duration
	var roundRatios []float64 // each round's, the two sides run one right after the other
	runs := 0
	for b.Loop() {
		for round := range echoRounds {
			var d, p time.Duration
			inTurn(runs+round,
				func() { d = pipeline(b, echoCalls/echoRounds, echoInFlight, direct) },
				func() {
					cpu0 := proxyCPU()
					p = pipeline(b, echoCalls/echoRounds, echoInFlight, proxied)
					cpuProxy += proxyCPU() - cpu0
				})
			wallDirect, wallProxied = wallDirect+d, wallProxied+p
			roundRatios = append(roundRatios, d.Seconds()/p.Seconds())
			inTurn(runs+round,
				func() { latDirect = append(latDirect, oneByOne(b, proxyLatencyCalls, direct)...) },
				func() { latProxied = append(latProxied, oneByOne(b, proxyLatencyCalls, proxied)...) })
		}
		runs++
	}
	n := float64(echoCalls / echoRounds * echoRounds * runs)
	b.ReportMetric(n/wallDirect.Seconds(), "direct-req/s")
	b.ReportMetric(n/wallProxied.Seconds(), "proxied-req/s")
	b.ReportMetric(wallDirect.Seconds()/wallProxied.Seconds(), "ratio")
	b.ReportMetric(median(roundRatios), "round-ratio-p50")
	b.ReportMetric(float64(cpuProxy.Microseconds())/n, "proxy-cpu-us/req")
	p50Direct, p50Proxied := median(latDirect), median(latProxied)
	b.ReportMetric(float64(p50Direct.Nanoseconds())/1e3, "direct-p50-us")
	b.ReportMetric(float64(p50Proxied.Nanoseconds())/1e3, "proxied-p50-us")
	added := p50Proxied - p50Direct
	b.ReportMetric(float64(added.Nanoseconds())/1e3, "added-us/call")
	b.ReportMetric(float64(added.Nanoseconds())/2e3, "added-us/msg")
}

// oneByOne makes n calls one after the other and returns how long each
// took.
func oneByOne(b *testing.B, n int, call func() error) []time.Duration {
	b.Helper()
	out := make([]time.Duration, 0, n)
	for range n {
		start := time.Now()
		if err := call(); err != nil {
			b.Fatalf("echo call failed: %v", err)
		}
		out = append(out, time.Since(start))
	}
	return slices.Clip(out)
}
