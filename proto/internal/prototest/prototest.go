// Package prototest holds what the decoders' tests of proto's sub-packages
// share: the seeds' bytes spelled in hex, and checks that a decoder's
// fields tile what it decoded.
package prototest

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
)

// SeedInitialize is the initialize request of seed 000 §2.1, byte for byte.
const SeedInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"test","version":"1.0"},"transport":{"type":"mcp-flow","version":"0.1","encodings":["cbor","json"]}}}`

// Unhex decodes hex digits, ignoring spaces, so a test can spell bytes as the seeds do.
func Unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatalf("bad hex in test %q: %v", s, err)
	}
	return b
}

// CheckFieldsCover asserts that fields tile [0, n) in order without gaps or overlaps.
func CheckFieldsCover(t testing.TB, fields []proto.Field, n int) {
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

// FixedHeaderCase checks a fixed-header parser against its encoder.
func FixedHeaderCase(t *testing.T, b []byte, size int, parse func([]byte) ([]byte, []byte, []proto.Field, error)) {
	header, payload, fields, err := parse(b)
	if err != nil {
		if len(b) >= size || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("%d bytes refused: %v", len(b), err)
		}
		return
	}
	if !bytes.Equal(header, b[:size]) || !bytes.Equal(payload, b[size:]) {
		t.Fatalf("re-encoded header % x, want % x", header, b[:size])
	}
	CheckFieldsCover(t, fields, len(b))
}
