package jsonrpc

import (
	"testing"

	"github.com/mcpscope/mcpscope/proto"
)

// toolsCall is a typical tools/call request.
const toolsCall = `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"search_files","arguments":{"path":"/srv/project","pattern":"*.go","maxResults":50,"caseSensitive":false,"threshold":0.75},"_meta":{"progressToken":"p-42"}}}`

func BenchmarkDecodeJSON(b *testing.B) {
	body := []byte(toolsCall)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := Decode(proto.EncJSON, body); err != nil {
			b.Fatal(err)
		}
	}
}

// benchmarkEncode encodes the tools/call request in enc.
func benchmarkEncode(b *testing.B, enc proto.Encoding) {
	m, err := Decode(proto.EncJSON, []byte(toolsCall))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(toolsCall)))
	for b.Loop() {
		if _, err := Encode(enc, m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeJSON(b *testing.B) { benchmarkEncode(b, proto.EncJSON) }

func BenchmarkEncodeCBOR(b *testing.B) { benchmarkEncode(b, proto.EncCBOR) }

func BenchmarkDecodeCBOR(b *testing.B) {
	body, err := JSONToCBOR([]byte(toolsCall))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := Decode(proto.EncCBOR, body); err != nil {
			b.Fatal(err)
		}
	}
}
