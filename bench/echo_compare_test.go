//go:build linux

package bench

import (
	"testing"
	"time"
)

// echoCost is what one client's batches of pipelined calls cost.
type echoCost struct {
	wall   time.Duration // the batches' wall time
	cpu    time.Duration // CPU time of this process, where the clients run
	server time.Duration // CPU time of the server process, when it is known
}

// batch runs calls pipelined calls of call and adds their cost to c;
// serverCPU, when not nil, reads the server's CPU time so far.
func (c *echoCost) batch(b *testing.B, calls int, call func() error, serverCPU func() time.Duration) {
	b.Helper()
	var srv0 time.Duration
	if serverCPU != nil {
		srv0 = serverCPU()
	}
	cpu0 := processCPU(b)
	c.wall += pipeline(b, calls, echoInFlight, call)
	c.cpu += processCPU(b) - cpu0
	if serverCPU != nil {
		c.server += serverCPU() - srv0
	}
}

// echoRounds is how many batches of each client one iteration of
// compareEcho runs, in turn: short batches, so that both clients see the
// same load of a shared machine.
const echoRounds = 10

// compareEcho warms both clients, then runs calls pipelined echo calls
// with each per iteration, in echoRounds batches taken in turn (neither
// always first), and reports:
//
//   - "mcpscope-req/s", "gosdk-req/s" and "ratio" (mcpscope ÷ Go SDK), in
//     wall time;
//   - "mcpscope-cpu-us/req", "gosdk-cpu-us/req" and "cpu-ratio" (Go SDK ÷
//     mcpscope): the CPU time of this process per request. Only the clients
//     run in it (each server is a process of its own), and CPU time does
//     not count the time a thread waited for a core, so this ratio holds on
//     a loaded machine where wall time does not;
//   - with serverCPU (the server's CPU time so far), "server-cpu-us/req-
//     mcpscope" and "server-cpu-us/req-gosdk": what the one server spent on
//     each client's requests.
func compareEcho(b *testing.B, calls int, ours, theirs func() error, serverCPU func() time.Duration) {
	b.Helper()
	pipeline(b, 200, echoInFlight, ours) // warm both
	pipeline(b, 200, echoInFlight, theirs)

	var costOurs, costTheirs echoCost
	runs := 0
	for b.Loop() {
		for round := range echoRounds {
			inTurn(runs+round,
				func() { costOurs.batch(b, calls/echoRounds, ours, serverCPU) },
				func() { costTheirs.batch(b, calls/echoRounds, theirs, serverCPU) })
		}
		runs++
	}
	n := float64(calls / echoRounds * echoRounds * runs)
	b.ReportMetric(n/costOurs.wall.Seconds(), "mcpscope-req/s")
	b.ReportMetric(n/costTheirs.wall.Seconds(), "gosdk-req/s")
	b.ReportMetric(costTheirs.wall.Seconds()/costOurs.wall.Seconds(), "ratio")
	b.ReportMetric(float64(costOurs.cpu.Microseconds())/n, "mcpscope-cpu-us/req")
	b.ReportMetric(float64(costTheirs.cpu.Microseconds())/n, "gosdk-cpu-us/req")
	b.ReportMetric(costTheirs.cpu.Seconds()/costOurs.cpu.Seconds(), "cpu-ratio")
	if serverCPU != nil {
		b.ReportMetric(float64(costOurs.server.Microseconds())/n, "server-cpu-us/req-mcpscope")
		b.ReportMetric(float64(costTheirs.server.Microseconds())/n, "server-cpu-us/req-gosdk")
	}
}
