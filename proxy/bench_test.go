package proxy

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
)

// nopCarrier carries nothing, so that a benchmark measures Relay alone.
type nopCarrier struct{}

func (nopCarrier) Pass(context.Context, Hop) error                 { return nil }
func (nopCarrier) Send(context.Context, capture.Dir, []byte) error { return nil }
func (nopCarrier) Cut(string)                                      {}

// BenchmarkRelay is the core's cost of one tools/call and its answer:
// decode, match, capture (and record), with a fault rule and a pause
// filter in force that match neither.
func BenchmarkRelay(b *testing.B) {
	for _, rec := range []bool{false, true} {
		name := "store"
		if rec {
			name = "store+recording"
		}
		b.Run(name, func(b *testing.B) {
			o := Options{Name: "bench", NoRecord: !rec, Log: b.Logf,
				Faults: []Fault{{Match: Filter{Tool: "slow"}, Action: FaultDrop}}}
			if rec {
				o.Record = filepath.Join(b.TempDir(), "r.jsonl")
			}
			s, err := Open(o)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close(nil)
			if err := s.PauseOn([]Filter{{Method: "prompts/get"}}); err != nil {
				b.Fatal(err)
			}
			req, ans := hop(capture.Out, callTool(1, "echo")), hop(capture.In, result(1))
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				_ = s.Relay(ctx, req, nopCarrier{})
				_ = s.Relay(ctx, ans, nopCarrier{})
			}
		})
	}
}
