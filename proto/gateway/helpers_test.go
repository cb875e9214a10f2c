package gateway

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
)

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

// fixedHeaderCase checks a fixed-header parser against its encoder.
func fixedHeaderCase(t *testing.T, b []byte, size int, parse func([]byte) ([]byte, []byte, []proto.Field, error)) {
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
	checkFieldsCover(t, fields, len(b))
}
