package jsonrpc

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
)

// seedInitialize is the initialize request of seed 000 §2.1, byte for byte.
const seedInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"test","version":"1.0"},"transport":{"type":"mcp-flow","version":"0.1","encodings":["cbor","json"]}}}`

// unhex decodes hex digits, ignoring spaces, so a test can spell bytes as the seeds do.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatalf("bad hex in test %q: %v", s, err)
	}
	return b
}

// checkFieldsCover asserts that fields tile [0, n) in order without gaps or overlaps.
func checkFieldsCover(t testing.TB, fields []proto.Field, n int) {
	t.Helper()
	off := 0
	for _, f := range fields {
		if f.Offset != off || f.Len <= 0 {
			t.Fatalf("field %q at %d+%d does not continue at %d: %+v", f.Name, f.Offset, f.Len, off, fields)
		}
		off += f.Len
	}
	if off != n {
		t.Fatalf("fields cover %d bytes, want %d: %+v", off, n, fields)
	}
}
