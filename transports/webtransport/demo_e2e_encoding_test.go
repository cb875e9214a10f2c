package webtransport_test

import (
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/proto"
	protoflow "github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/transports/webtransport"
)

// By default the session negotiates CBOR; offering only JSON keeps it JSON.
// initialize and its result are JSON either way; every later control frame,
// both ways, and every progress and log datagram is in the negotiated
// encoding, as the raw bytes decoded by a CBOR or JSON decoder show.
func TestDemoE2EEncodingOnTheWire(t *testing.T) {
	d := startDemo(t, flow.Config{})
	for _, tc := range []struct {
		name   string
		offer  []string
		want   proto.Encoding
		chosen string
	}{
		{"default negotiates cbor", nil, proto.EncCBOR, "cbor"},
		{"json offered", []string{"json"}, proto.EncJSON, "json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, tr, store := dialDemo(t, d, func(c *webtransport.Config) { c.Encodings = tc.offer })
			if n, ok := tr.Negotiated(); !ok || n.Encoding != tc.chosen {
				t.Fatalf("negotiated %+v", n)
			}
			ctx := flowtest.Context(t)
			if _, _, err := callTool(ctx, s, "echo", map[string]any{"message": "héllo"}); err != nil {
				t.Fatal(err)
			}
			if _, _, err := callTool(ctx, s, "analyze", map[string]any{"steps": 2, "interval_ms": 0}); err != nil {
				t.Fatal(err)
			}
			control := frames(store, func(f *capture.Frame) bool { return f.Chan.Kind == capture.Control })
			if len(control) < 6 {
				t.Fatalf("only %d control frames captured", len(control))
			}
			for i, f := range control {
				body := controlBody(t, f)
				want := tc.want
				if i < 2 { // the initialize request and its result
					want = proto.EncJSON
				}
				if f.Enc != want {
					t.Fatalf("control frame %d (%s) is marked %s, want %s", i, f.Dir, f.Enc, want)
				}
				if got := decodeRPC(t, want, body); got["jsonrpc"] != "2.0" {
					t.Fatalf("control frame %d decodes to %v", i, got)
				}
			}
			// A progress and a log datagram per step; they may trail the result.
			var datagrams []*capture.Frame
			flowtest.Eventually(t, "4 datagrams arrive", func() bool {
				datagrams = frames(store, func(f *capture.Frame) bool { return f.Chan.Kind == capture.Datagram })
				return len(datagrams) >= 4
			})
			for _, f := range datagrams {
				if f.Enc != tc.want || f.Err != nil {
					t.Fatalf("datagram %v: %s, error %v", f.Chan, f.Enc, f.Err)
				}
				if got := decodeRPC(t, tc.want, f.Raw[protoflow.DatagramHeaderLen:]); got["level"] == nil && got["progress"] == nil {
					t.Fatalf("datagram %v decodes to %v", f.Chan, got)
				}
			}
		})
	}
}

// controlBody returns a control frame's body after checking its 4-byte
// big-endian length prefix.
func controlBody(t *testing.T, f *capture.Frame) []byte {
	t.Helper()
	if len(f.Raw) < 4 || int(binary.BigEndian.Uint32(f.Raw)) != len(f.Raw)-4 {
		t.Fatalf("control frame of %d bytes has a wrong length prefix", len(f.Raw))
	}
	return f.Raw[4:]
}

// decodeRPC decodes one object in enc with the encoding's own decoder; a
// CBOR body must not also be valid JSON.
func decodeRPC(t *testing.T, enc proto.Encoding, body []byte) map[string]any {
	t.Helper()
	var m map[string]any
	var err error
	switch enc {
	case proto.EncCBOR:
		if json.Valid(body) {
			t.Fatalf("a CBOR body is valid JSON: %q", body)
		}
		err = cbor.Unmarshal(body, &m)
	default:
		err = json.Unmarshal(body, &m)
	}
	if err != nil {
		t.Fatalf("decoding a %s body: %v", enc, err)
	}
	return m
}
