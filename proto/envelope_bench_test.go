package proto

import (
	"encoding/json"
	"strings"
	"testing"
)

// BenchmarkDecodeEnvelope compares DecodeMessage with the baseline of
// decoding the same body with encoding/json alone (which checks neither
// duplicate members nor an "error" that is null), on a small request and
// on a 64 KiB result.
func BenchmarkDecodeEnvelope(b *testing.B) {
	bigResult := `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"` + strings.Repeat(`lorem ipsum \"dolor\" `, 3000) + `"}]}}`
	for _, body := range []struct{ name, text string }{{"request", toolsCall}, {"result64k", bigResult}} {
		in := []byte(body.text)
		b.Run(body.name+"/encoding-json", func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				var m Message
				if err := json.Unmarshal(in, &m); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(body.name+"/DecodeMessage", func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				if _, err := DecodeMessage(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
