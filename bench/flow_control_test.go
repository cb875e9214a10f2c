package bench

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
)

// The control workload: echo calls one after the other, then pipelined,
// in controlRounds rounds per iteration that alternate the two sessions, so
// that both see the same load of a shared machine.
const (
	controlSequential = 2000
	controlPipelined  = 8000
	controlInFlight   = 32
	controlRounds     = 10
)

// flowEcho returns a call of the echo tool over c, each bounded by the
// hang guard.
func flowEcho(c *flowClient) func() error {
	params := json.RawMessage(`{"name":"echo","arguments":{"message":"hello"}}`)
	return func() error {
		ctx, cancel := context.WithTimeout(context.Background(), flowHangGuard)
		defer cancel()
		_, err := c.session.Call(ctx, "tools/call", params)
		return err
	}
}

// sequential runs n calls one after the other and returns the wall time.
func sequential(b *testing.B, n int, call func() error) time.Duration {
	b.Helper()
	start := time.Now()
	for range n {
		if err := call(); err != nil {
			b.Fatalf("echo call failed: %v", err)
		}
	}
	return time.Since(start)
}

// BenchmarkControlRoundTripsCBORvsJSON compares tools/call echo round trips
// per second over MCP-Flow's control stream with the encoding forced to
// CBOR versus JSON: two sessions of mcpscope's stack (transport, engine,
// capture store) to the same demo server, alternating in short rounds in
// the same run, one call at a time ("seq") and controlInFlight at a time
// ("pipe"). The ratios are CBOR ÷ JSON.
func BenchmarkControlRoundTripsCBORvsJSON(b *testing.B) {
	srv := flowtest.Start(b, flow.Config{})
	cbor := flowEcho(dialFlow(b, srv.Server, []string{"cbor"}, controlInFlight, nil))
	js := flowEcho(dialFlow(b, srv.Server, []string{"json"}, controlInFlight, nil))
	for _, call := range []func() error{cbor, js} { // warm both
		sequential(b, 100, call)
		pipeline(b, 500, controlInFlight, call)
	}

	var seqCBOR, seqJSON, pipeCBOR, pipeJSON time.Duration
	runs := 0
	for b.Loop() {
		for round := range controlRounds {
			inTurn(runs+round,
				func() { seqCBOR += sequential(b, controlSequential/controlRounds, cbor) },
				func() { seqJSON += sequential(b, controlSequential/controlRounds, js) })
		}
		for round := range controlRounds {
			inTurn(runs+round,
				func() { pipeCBOR += pipeline(b, controlPipelined/controlRounds, controlInFlight, cbor) },
				func() { pipeJSON += pipeline(b, controlPipelined/controlRounds, controlInFlight, js) })
		}
		runs++
	}
	seq := float64(controlSequential * runs)
	pipe := float64(controlPipelined * runs)
	b.ReportMetric(seq/seqCBOR.Seconds(), "cbor-seq-rt/s")
	b.ReportMetric(seq/seqJSON.Seconds(), "json-seq-rt/s")
	b.ReportMetric(seqJSON.Seconds()/seqCBOR.Seconds(), "seq-ratio")
	b.ReportMetric(pipe/pipeCBOR.Seconds(), "cbor-pipe-rt/s")
	b.ReportMetric(pipe/pipeJSON.Seconds(), "json-pipe-rt/s")
	b.ReportMetric(pipeJSON.Seconds()/pipeCBOR.Seconds(), "pipe-ratio")
}
