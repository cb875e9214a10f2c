package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/mcpscope/mcpscope/proto/internal/prototest"
)

func TestGatewayChunkHeaderDotNetOrder(t *testing.T) {
	id, err := ParseGUID("550e8400-e29b-41d4-a716-446655440000")
	if err != nil {
		t.Fatal(err)
	}
	h := GatewayChunkHeader{StreamID: id, Index: 0}
	want := prototest.Unhex(t, "00 84 0E 55 9B E2 D4 41 A7 16 44 66 55 44 00 00  00 00 00 00 00 00 00 00")
	if got := h.Append(nil); !bytes.Equal(got, want) {
		t.Fatalf("Append = % x\nwant     % x", got, want)
	}
	unit := append(h.Append(nil), make([]byte, 1024)...)
	got, payload, fields, err := ParseGatewayChunkHeader(unit)
	if err != nil || got != h || len(payload) != 1024 {
		t.Fatalf("Parse = %+v %d %v", got, len(payload), err)
	}
	prototest.CheckFieldsCover(t, fields, len(unit))
	if fields[0].Name != "stream id (GUID, .NET order)" || fields[0].Value != "550e8400-e29b-41d4-a716-446655440000" ||
		fields[1].Name != "index" || fields[1].Value != "0" || fields[2].Name != "payload" || fields[2].Value != "1024 bytes" {
		t.Fatalf("fields %+v", fields)
	}
	// The index is little-endian and signed.
	h = GatewayChunkHeader{StreamID: id, Index: 258}
	if b := h.Append(nil); !bytes.Equal(b[16:], prototest.Unhex(t, "02 01 00 00 00 00 00 00")) {
		t.Fatalf("index 258 = % x", b[16:])
	}
	neg, _, _, err := ParseGatewayChunkHeader(append(want[:16:16], prototest.Unhex(t, "ff ff ff ff ff ff ff ff")...))
	if err != nil || neg.Index != -1 {
		t.Fatalf("index -1: %+v %v", neg, err)
	}
	if _, _, _, err := ParseGatewayChunkHeader(want[:23]); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("short chunk: %v", err)
	}
}

func TestGUIDText(t *testing.T) {
	want := GUID{0x55, 0x0e, 0x84, 0x00, 0xe2, 0x9b, 0x41, 0xd4, 0xa7, 0x16, 0x44, 0x66, 0x55, 0x44, 0x00, 0x00}
	for _, s := range []string{
		"550e8400-e29b-41d4-a716-446655440000",
		"550E8400-E29B-41D4-A716-446655440000",
		"{550e8400-e29b-41d4-a716-446655440000}",
		"550e8400e29b41d4a716446655440000",
	} {
		g, err := ParseGUID(s)
		if err != nil || g != want {
			t.Fatalf("ParseGUID(%q) = %v, %v", s, g, err)
		}
	}
	if want.String() != "550e8400-e29b-41d4-a716-446655440000" {
		t.Fatalf("String = %s", want)
	}
	for _, s := range []string{"", "550e8400-e29b-41d4-a716-44665544000", "550e8400+e29b-41d4-a716-446655440000", "zz0e8400-e29b-41d4-a716-446655440000", "{550e8400e29b41d4a716446655440000"} {
		if _, err := ParseGUID(s); err == nil {
			t.Errorf("ParseGUID(%q) accepted it", s)
		}
	}
	// GUIDs are JSON strings, as in a StreamMessage id.
	var v struct{ ID GUID }
	if err := json.Unmarshal([]byte(`{"ID":"550e8400-e29b-41d4-a716-446655440000"}`), &v); err != nil || v.ID != want {
		t.Fatalf("UnmarshalText: %v %v", v.ID, err)
	}
	if b, err := json.Marshal(v); err != nil || string(b) != `{"ID":"550e8400-e29b-41d4-a716-446655440000"}` {
		t.Fatalf("MarshalText: %s %v", b, err)
	}
	a, b := NewGUID(), NewGUID()
	if a == b || a[6]>>4 != 4 || a[8]>>6 != 2 {
		t.Fatalf("NewGUID = %s, %s", a, b)
	}
}
