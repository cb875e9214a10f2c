package live

import (
	"context"
	"io"
	"net"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proxy"
)

// BenchmarkLiveRelay is the cost of Relay with no viewer, with two
// viewers that read (and drop) everything, and with one that reads
// nothing: the hub's side only, as when viewers are other processes.
func BenchmarkLiveRelay(b *testing.B) {
	body := []byte(call(1))
	for _, c := range []struct {
		name           string
		viewers, stuck int
	}{{"none", 0, 0}, {"two", 2, 0}, {"stuck", 0, 1}} {
		b.Run(c.name, func(b *testing.B) {
			s, err := proxy.Open(proxy.Options{Name: "bench", NoRecord: true, Capture: capture.Config{MaxFrames: 10_000}})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close(nil)
			h, err := Serve(s)
			if err != nil {
				b.Fatal(err)
			}
			defer h.Close()
			for range c.viewers {
				conn, err := net.Dial("unix", h.Socket())
				if err != nil {
					b.Fatal(err)
				}
				defer conn.Close()
				go func() { _, _ = io.Copy(io.Discard, conn) }()
			}
			for range c.stuck {
				conn, err := net.Dial("unix", h.Socket())
				if err != nil {
					b.Fatal(err)
				}
				defer conn.Close()
			}
			car := &carrier{}
			hop := proxy.Hop{Dir: capture.Out, Chan: capture.Channel{Kind: capture.Control}, Raw: body, Body: body, Enc: proto.EncJSON}
			b.ResetTimer()
			for range b.N {
				if err := s.Relay(context.Background(), hop, car); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
