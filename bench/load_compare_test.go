//go:build linux

package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// The load both clients put on the Go SDK everything server: the issue's
// bar is set at concurrency 32 on tools/call greet.
const (
	loadConcurrency = 32
	loadRequests    = 10000
	loadBaseline    = 200 // a short run: what starting and connecting cost
	latencyRequests = 300 // calls of each client at concurrency 1, per batch
	latencyRounds   = 10  // batches of each client per iteration, in turn
	// loadProtocol is the revision the Inspector speaks; mcpscope offers it
	// too, so both load the server the same way (in 2026-07-28 the Go SDK
	// server adds its serverInfo, a 3.4 KB icon, to every result).
	loadProtocol = "2025-11-25"
)

// loadReport is what both clients print at the end of a load run (the
// Inspector's --load summary and mcpscope bench --format json agree on
// these members).
type loadReport struct {
	Completed  int     `json:"completed"` // mcpscope
	Requests   int     `json:"requests"`  // the Inspector
	Errors     int     `json:"errors"`
	Throughput float64 `json:"throughput"`
	Latency    struct {
		P50 float64 `json:"p50"`
	} `json:"latencyMs"`
}

// done is how many calls completed.
func (r loadReport) done() int { return max(r.Completed, r.Requests) }

// clientRun runs a load client to its end and returns its report and the
// CPU time of the client process alone: read from /proc/PID/stat once it
// has exited and before it is reaped, so the server, its child, is not in
// it whether the client waited for it or not.
func clientRun(b *testing.B, argv []string) (loadReport, time.Duration) {
	b.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, cmd.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			if err != nil {
				b.Fatalf("waitid: %v", err)
			}
			break
		}
	}
	cpu := processCPUOf(b, cmd.Process.Pid)
	if err := cmd.Wait(); err != nil {
		b.Fatalf("%s: %v\nstdout: %s\nstderr: %s", argv[0], err, out.String(), errb.String())
	}
	var rep loadReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.done() == 0 {
		b.Fatalf("%s printed no report (%v): %s\nstderr: %s", argv[0], err, out.String(), errb.String())
	}
	if rep.Errors != 0 {
		b.Fatalf("%s: %d calls failed: %s", argv[0], rep.Errors, out.String())
	}
	return rep, cpu
}

// quietServer is the argv of the server with its stderr (the Go SDK
// everything server logs every message there) thrown away, for both
// clients alike.
func quietServer(server string) []string {
	return []string{"sh", "-c", "exec " + server + " 2>/dev/null"}
}

// BenchmarkLoadVsInspector loads the Go SDK everything server over stdio
// with tools/call greet, at concurrency 32, with mcpscope bench and with
// the MCP Inspector's --load, in turn, and reports:
//
//   - "throughput_vs_inspector": mcpscope's calls/s ÷ the Inspector's, each
//     as the client reports it (target ≥ 1);
//   - "cpu_per_call_vs_inspector": the client process's CPU time per call,
//     mcpscope's ÷ the Inspector's, less what starting and connecting
//     cost (a short run's CPU) (target ≤ 0.2);
//   - "latency_overhead_pct": how much mcpscope bench's p50 at concurrency
//     1 exceeds the p50 an independent minimal JSON-RPC client measures of
//     the same call: the median over pairs of short batches, one of each
//     client taken in turn, so that both see the same load of a shared
//     machine (target < 5);
//
// and the figures behind them.
func BenchmarkLoadVsInspector(b *testing.B) {
	server := peertest.GoSDKEverything(b)[0]
	bin := buildMcpscope(b)
	target := quietServer(server)
	greet := `{"name":"greet","arguments":{"name":"x"}}`
	ours := func(conc, n int) []string {
		return append([]string{bin, "bench", "--format", "json", "--protocol", loadProtocol,
			"--concurrency", strconv.Itoa(conc), "--requests", strconv.Itoa(n), "tools/call", greet, "--"}, target...)
	}
	theirs := func(n int) []string {
		return append(append(peertest.InspectorCLI(b), target...), "--load", "--load-concurrency", strconv.Itoa(loadConcurrency),
			"--load-requests", strconv.Itoa(n), "--method", "tools/call", "--tool-name", "greet", "--tool-arg", "name=x")
	}

	_, ourBase := clientRun(b, ours(loadConcurrency, loadBaseline))
	_, theirBase := clientRun(b, theirs(loadBaseline))
	var ourRate, theirRate []float64
	var ourCPU, theirCPU time.Duration
	var ourP50, rawP50, overhead []float64
	runs := 0
	for b.Loop() {
		inTurn(runs,
			func() {
				rep, cpu := clientRun(b, ours(loadConcurrency, loadRequests))
				ourRate, ourCPU = append(ourRate, rep.Throughput), ourCPU+cpu-ourBase
			},
			func() {
				rep, cpu := clientRun(b, theirs(loadRequests))
				theirRate, theirCPU = append(theirRate, rep.Throughput), theirCPU+cpu-theirBase
			})
		for round := range latencyRounds {
			var ourP, rawP float64
			inTurn(runs+round,
				func() {
					rep, _ := clientRun(b, ours(1, latencyRequests))
					ourP = rep.Latency.P50
				},
				func() { rawP = rawLatencyP50(b, target, latencyRequests) })
			ourP50, rawP50 = append(ourP50, ourP), append(rawP50, rawP)
			overhead = append(overhead, (ourP/rawP-1)*100)
		}
		runs++
	}
	calls := float64((loadRequests - loadBaseline) * runs)
	ourPer, theirPer := float64(ourCPU.Microseconds())/calls, float64(theirCPU.Microseconds())/calls
	b.ReportMetric(median(ourRate), "mcpscope-calls/s")
	b.ReportMetric(median(theirRate), "inspector-calls/s")
	b.ReportMetric(median(ourRate)/median(theirRate), "throughput_vs_inspector")
	b.ReportMetric(ourPer, "mcpscope-cpu-us/call")
	b.ReportMetric(theirPer, "inspector-cpu-us/call")
	b.ReportMetric(ourPer/theirPer, "cpu_per_call_vs_inspector")
	b.ReportMetric(median(rawP50)*1000, "raw-p50-us")
	b.ReportMetric(median(ourP50)*1000, "mcpscope-p50-us")
	b.ReportMetric(median(overhead), "latency_overhead_pct")
}

// rawLatencyP50 is the independent timing: a minimal JSON-RPC client over
// the server's stdio that writes a line and reads a line, n times at
// concurrency 1, timing each tools/call greet from before the write to
// after the read. It declares the capabilities mcpscope declares, so the
// server treats both alike. It returns the median in milliseconds.
func rawLatencyP50(b *testing.B, argv []string, n int) float64 {
	b.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = stdin.Close(); _ = cmd.Wait() }()
	rd := bufio.NewReaderSize(stdout, 64<<10)
	roundTrip := func(line string) []byte {
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			b.Fatalf("raw client: %v", err)
		}
		got, err := rd.ReadBytes('\n')
		if err != nil {
			b.Fatalf("raw client: %v", err)
		}
		return got
	}
	roundTrip(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + loadProtocol + `","capabilities":{"sampling":{},"elicitation":{"form":{},"url":{}}},"clientInfo":{"name":"raw","version":"1"}}}`)
	if _, err := io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		b.Fatal(err)
	}
	took := make([]float64, n)
	for i := range n {
		req := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"greet","arguments":{"name":"x"}}}`, i+1)
		start := time.Now()
		got := roundTrip(req)
		took[i] = float64(time.Since(start)) / float64(time.Millisecond)
		if !bytes.Contains(got, []byte(`"Hi x"`)) {
			b.Fatalf("raw client: call %d answered %s", i+1, got)
		}
	}
	return median(took)
}
