package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/transports/webtransport"
)

// More than datagramFloodRate datagrams within one second warn once; as
// many spread over longer, or outgoing frames, do not.
func TestDatagramFloodWarnsOnce(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	feed := func(n int, every time.Duration) string {
		var buf bytes.Buffer
		d := &datagramFlood{out: &lineWriter{w: &buf}}
		for i := range n {
			when := at.Add(time.Duration(i) * every)
			d.Append(&capture.Frame{Time: when, Dir: capture.In, Chan: capture.Channel{Kind: capture.Datagram, Ch: 3}})
			d.Append(&capture.Frame{Time: when, Dir: capture.In, Chan: capture.Channel{Kind: capture.Control}})
		}
		d.Flush()
		d.Flush()
		return buf.String()
	}
	got := feed(datagramFloodRate+1, 100*time.Microsecond)
	want := "warning: the server flooded the session with datagrams: 1001 arrived, up to 1001 within one second; " +
		"datagrams beyond the receive queue are dropped, so some may be missing\n"
	if got != want {
		t.Fatalf("flood:\n%q\nwant\n%q", got, want)
	}
	if got := feed(datagramFloodRate+1, 20*time.Millisecond); got != "" { // audio pace
		t.Fatalf("50 datagrams a second warned: %q", got)
	}
	if got := feed(datagramFloodRate, 0); got != "" {
		t.Fatalf("exactly the rate warned: %q", got)
	}
}

// A lying length prefix and a frame in the wrong encoding are named as such.
func TestDecodeWarningOfFlowFrames(t *testing.T) {
	lying := &capture.Frame{Dir: capture.In, Raw: []byte{0xff, 0xff, 0xff, 0xff}, Size: 4,
		Err: &flow.FrameTooLargeError{Size: 1<<32 - 1, Max: 16 << 20}}
	if got, want := decodeWarning(lying, "frame"), "the server sent a frame whose length prefix claims 4294967295 bytes, over the 16777216-byte limit (--max-frame-size); it was not read"; got != want {
		t.Errorf("lying length: %q", got)
	}
	wrong := &capture.Frame{Dir: capture.In, Raw: []byte("\x00\x00\x00\x02{}"), Size: 6,
		Err: &webtransport.EncodingMismatchError{Negotiated: proto.EncCBOR, Got: proto.EncJSON}}
	if got := decodeWarning(wrong, "frame"); !strings.HasPrefix(got, "-32003 Encoding Mismatch: the server sent a json frame after cbor was negotiated") {
		t.Errorf("wrong encoding: %q", got)
	}
}
