package flow

import (
	"testing"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// FuzzDecodeFrame: any control frame body, in either encoding in force,
// yields a message to serve or an error response to send, never both, never
// a panic; a request that is served has an MCP-Flow id.
func FuzzDecodeFrame(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"x","method":"ping"}`,
		`{"jsonrpc":"2.0","method":"$/cancel","params":{"requestId":4}}`,
		`{"jsonrpc":"2.0","id":4294967296,"method":"ping"}`,
		`{"id":1}`, `[]`, ``,
	} {
		f.Add([]byte(s), false)
		if c, err := jsonrpc.JSONToCBOR([]byte(s)); err == nil {
			f.Add(c, true)
		}
	}
	f.Add([]byte{0xa1, 0x61, 0x61, 0xff}, true)
	f.Fuzz(func(t *testing.T, body []byte, cbor bool) {
		enc := proto.EncJSON
		if cbor {
			enc = proto.EncCBOR
		}
		m, refusal := decodeFrame(enc, body)
		if (m == nil) == (refusal == nil) {
			t.Fatalf("message %v and refusal %v", m, refusal)
		}
		if refusal != nil && (refusal.Error == nil || refusal.Kind() != jsonrpc.KindError) {
			t.Fatalf("refusal is not an error response: %+v", refusal)
		}
		if refusal != nil {
			if _, err := jsonrpc.Encode(enc, refusal); err != nil {
				t.Fatalf("refusal does not encode: %v", err)
			}
		}
		if m != nil && m.Kind() == jsonrpc.KindRequest {
			if _, ok := flowID(*m.ID); !ok {
				t.Fatalf("request id %s is served", m.ID)
			}
		}
	})
}
