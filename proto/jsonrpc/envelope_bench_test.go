package jsonrpc

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// BenchmarkDecodeEnvelope times DecodeMessage against the baseline of
// decoding the same body with encoding/json alone (which checks neither
// duplicate members nor a null "error"), on a small request and on a
// 64 KiB result. The two alternate in small batches within each iteration,
// so that a machine whose load changes slows both alike; the metric
// "time/encoding-json" is DecodeMessage's time over the baseline's.
func BenchmarkDecodeEnvelope(b *testing.B) {
	bigResult := `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"` + strings.Repeat(`lorem ipsum \"dolor\" `, 3000) + `"}]}}`
	for _, body := range []struct {
		name, text string
		batch      int
	}{{"request", toolsCall, 100}, {"result64k", bigResult, 2}} {
		in := []byte(body.text)
		b.Run(body.name, func(b *testing.B) {
			var base, ours time.Duration
			b.SetBytes(int64(len(in)) * int64(body.batch))
			for b.Loop() {
				t0 := time.Now()
				for range body.batch {
					var m Message
					if err := json.Unmarshal(in, &m); err != nil {
						b.Fatal(err)
					}
				}
				t1 := time.Now()
				for range body.batch {
					if _, err := DecodeMessage(in); err != nil {
						b.Fatal(err)
					}
				}
				base, ours = base+t1.Sub(t0), ours+time.Since(t1)
			}
			b.ReportMetric(float64(ours)/float64(base), "time/encoding-json")
		})
	}
}
