package jsonrpc

import (
	"bytes"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
)

func TestEncodeCBORWritesValidText(t *testing.T) {
	// Invalid UTF-8 in Go strings becomes U+FFFD, as encoding/json writes it;
	// the id used to be written as an ill-formed text string.
	id := StringID("id-\xff")
	m := &Message{ID: &id, Method: "m\xc3", Error: &Error{Code: 1, Message: "e\x80\x80"}}
	c, err := Encode(proto.EncCBOR, m)
	if err != nil {
		t.Fatal(err)
	}
	if old, err := encodeCBORViaJSON(m); err != nil || !bytes.Equal(old, c) {
		t.Fatalf("direct CBOR % x, via JSON % x (%v)", c, old, err)
	}
	back, err := Decode(proto.EncCBOR, c)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if s, _ := back.ID.Str(); s != "id-\uFFFD" || back.Method != "m\uFFFD" || back.Error.Message != "e\uFFFD\uFFFD" {
		t.Fatalf("decoded id %s method %q message %q", back.ID, back.Method, back.Error.Message)
	}
	b, err := id.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	var got ID
	if err := got.UnmarshalCBOR(b); err != nil || got.String() != `"id-`+"\uFFFD"+`"` {
		t.Fatalf("MarshalCBOR of an id with invalid UTF-8 reads back as %s (%v)", got, err)
	}
}
