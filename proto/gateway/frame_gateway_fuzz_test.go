package gateway

import (
	"testing"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/internal/prototest"
)

func FuzzGatewayChunkHeader(f *testing.F) {
	id, _ := ParseGUID("550e8400-e29b-41d4-a716-446655440000")
	f.Add(append(GatewayChunkHeader{StreamID: id, Index: 3}.Append(nil), "data"...))
	f.Add(make([]byte, 23))
	f.Fuzz(func(t *testing.T, b []byte) {
		prototest.FixedHeaderCase(t, b, GatewayChunkHeaderLen, func(b []byte) ([]byte, []byte, []proto.Field, error) {
			h, p, fl, err := ParseGatewayChunkHeader(b)
			return h.Append(nil), p, fl, err
		})
	})
}

func FuzzParseGUID(f *testing.F) {
	f.Add("550e8400-e29b-41d4-a716-446655440000")
	f.Add("{550e8400e29b41d4a716446655440000}")
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGUID(s)
		if err != nil {
			return
		}
		back, err := ParseGUID(g.String())
		if err != nil || back != g {
			t.Fatalf("%s does not parse back: %v", g, err)
		}
		if h, _, _, err := ParseGatewayChunkHeader(GatewayChunkHeader{StreamID: g}.Append(nil)); err != nil || h.StreamID != g {
			t.Fatalf(".NET byte order does not round-trip %s", g)
		}
	})
}
