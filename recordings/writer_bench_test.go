package recordings

import (
	"io"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// BenchmarkWriterAppendCall records a tools/call and its answer as the
// stdio proxy hands them over (a line, decoded and annotated), redaction
// on: the recording's cost per round trip of the proxy's hot path.
func BenchmarkWriterAppendCall(b *testing.B) {
	w, _ := NewWriter(io.Discard, Header{Transport: "stdio", Proxy: "bench"}, Options{})
	defer w.Close()
	frame := func(dir capture.Dir, body string) *capture.Frame {
		raw := []byte(body + "\n")
		m, err := jsonrpc.DecodeMessage(raw[:len(raw)-1])
		if err != nil {
			b.Fatal(err)
		}
		return &capture.Frame{Dir: dir, Raw: raw, Size: len(raw), Enc: proto.EncJSON, Msg: m, Fields: jsonrpc.LineFields(raw)}
	}
	call := frame(capture.Out, `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`)
	answer := frame(capture.In, `{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"Echo: hi"}]}}`)
	at := time.Now()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		for _, f := range []*capture.Frame{call, answer} {
			c := *f
			c.Seq, c.Time = uint64(i), at
			w.Append(&c)
		}
	}
}
