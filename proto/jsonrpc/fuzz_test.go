package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/internal/prototest"
)

// jsonSeeds are message bodies every JSON fuzz target starts from.
var jsonSeeds = []string{
	prototest.SeedInitialize,
	`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"/big.log"}}}`,
	`{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"ref/stream","streamTag":1,"mimeType":"text/plain"}]}}`,
	`{"jsonrpc":"2.0","id":99,"error":{"code":-32000,"message":"Cancelled"}}`,
	`{"jsonrpc":"2.0","method":"$/cancel","params":{"requestId":99,"reason":"User pressed Escape"}}`,
	`[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","id":1,"result":{}}]`,
	`{"jsonrpc":"2.0","id":1.0,"result":[1e400]}`, `[]`, `{}`, `"x"`, `-0`, `[18446744073709551616]`,
}

// addCBORSeeds adds the JSON seeds in CBOR, and a few hand-made items.
func addCBORSeeds(f *testing.F) {
	for _, s := range jsonSeeds {
		if c, err := JSONToCBOR([]byte(s)); err == nil {
			f.Add(c)
		}
	}
	for _, h := range []string{"a1 01 02", "bf 61 61 5f 41 01 ff ff", "d7 43 010203", "c3 42 0100", "9f 9f ff ff", "f9 7e00", "3b ffffffffffffffff", "7f 61 61 ff"} {
		f.Add(prototest.Unhex(f, h))
	}
}

func FuzzDecodeJSON(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		m, err := Decode(proto.EncJSON, body)
		if err != nil {
			return
		}
		if !bytes.Equal(m.Raw, body) || m.Validate() != nil {
			t.Fatalf("decoded message lost its body or is invalid")
		}
		for _, enc := range []proto.Encoding{proto.EncJSON, proto.EncCBOR} {
			out, err := Encode(enc, m)
			if enc == proto.EncCBOR && errors.Is(err, errNumberRange) {
				continue // 1e400 is JSON but no CBOR number
			}
			if err != nil {
				t.Fatalf("%s re-encode: %v", enc, err)
			}
			if enc == proto.EncCBOR {
				if old, err := encodeCBORViaJSON(m); err != nil || !bytes.Equal(old, out) {
					t.Fatalf("direct CBOR % x differs from the JSON detour's % x (%v)", out, old, err)
				}
			}
			back, err := Decode(enc, out)
			if err != nil {
				t.Fatalf("%s decode of re-encoded %s: %v", enc, body, err)
			}
			if back.Kind() != m.Kind() || back.Method != m.Method || (m.ID == nil) != (back.ID == nil) || (m.ID != nil && back.ID.Key() != m.ID.Key()) {
				t.Fatalf("%s round trip changed %s into %s", enc, body, out)
			}
		}
	})
}

func FuzzDecodeJSONBatch(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		msgs, batch, err := DecodeBatch(proto.EncJSON, body)
		if err != nil {
			return
		}
		if len(msgs) == 0 || (!batch && len(msgs) != 1) {
			t.Fatalf("batch=%v with %d messages", batch, len(msgs))
		}
		for _, m := range msgs {
			if m.Validate() != nil || !json.Valid(m.Raw) {
				t.Fatalf("batch item is invalid: %s", m.Raw)
			}
		}
	})
}

func FuzzDecodeCBOR(f *testing.F) {
	addCBORSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		m, err := Decode(proto.EncCBOR, body)
		if err == nil && !bytes.Equal(m.Raw, body) {
			t.Fatal("decoded message lost its body")
		}
		checkDecodeLikeTheJSONDetour(t, body, m, err)
		checkWellformedLikeFxamacker(t, body)
		if msgs, _, err := DecodeBatch(proto.EncCBOR, body); err == nil {
			for _, m := range msgs {
				if m.Validate() != nil || !bytes.Contains(body, m.Raw) {
					t.Fatal("batch item is invalid or not a slice of the body")
				}
			}
		}
		j, err := CBORToJSON(body)
		if err != nil {
			return
		}
		if !json.Valid(j) {
			t.Fatalf("CBORToJSON wrote invalid JSON %s", j)
		}
		// JSON → CBOR → JSON settles after one round.
		c, err := JSONToCBOR(j)
		if err != nil {
			t.Fatalf("JSONToCBOR refuses CBORToJSON's output %s: %v", j, err)
		}
		j2, err := CBORToJSON(c)
		if err != nil {
			t.Fatal(err)
		}
		c2, err := JSONToCBOR(j2)
		if err != nil || !bytes.Equal(c, c2) {
			t.Fatalf("CBOR of %s is not stable: % x vs % x (%v)", j2, c, c2, err)
		}
	})
}

func FuzzJSONToCBOR(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{`"\ud83d\ude00 \u00e9 \ud800"`, "\"\xff\xe2\x82\"", ` [ 1 , {"a" : -0.0e+1 } ] `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		c, err := JSONToCBOR(body)
		old, oldErr := jsonToCBORByTokens(body)
		if (err == nil) != (oldErr == nil) || !bytes.Equal(c, old) {
			t.Fatalf("JSONToCBOR % x (%v), the token transcoder % x (%v)", c, err, old, oldErr)
		}
		if err != nil {
			return
		}
		j, err := CBORToJSON(c)
		if err != nil {
			t.Fatalf("CBORToJSON refuses JSONToCBOR's output for %s: %v", body, err)
		}
		var in, out any
		if err := json.Unmarshal(body, &in); err != nil {
			return // encoding/json is stricter on some inputs; nothing to compare.
		}
		if err := json.Unmarshal(j, &out); err != nil {
			t.Fatalf("output %s is not JSON: %v", j, err)
		}
		if !reflect.DeepEqual(in, out) {
			t.Fatalf("JSON→CBOR→JSON changed the data\n in %s\nout %s", body, j)
		}
	})
}

// checkDecodeLikeTheJSONDetour checks Decode's m and err for body against
// CBORToJSON and DecodeMessage: the same message or the same failure, but
// for duplicate keys and trailing bytes, which only the direct decoder
// reports (with the message).
func checkDecodeLikeTheJSONDetour(t *testing.T, body []byte, m *Message, err error) {
	t.Helper()
	old, oldErr := decodeCBORViaJSON(body)
	switch {
	case errors.Is(err, ErrCBORDuplicateKey):
		return
	case errors.Is(err, ErrCBORTrailingBytes):
		if oldErr == nil {
			t.Fatalf("trailing bytes reported (%v) but the detour accepts the body", err)
		}
		return
	case err != nil && oldErr != nil && old == nil && m != nil && m.Violation != nil:
		return // the direct walk read the id of a body the detour cannot convert
	case (err == nil) != (oldErr == nil) || (m == nil) != (old == nil):
		t.Fatalf("direct decode m=%v err=%v, JSON detour m=%v err=%v", m, err, old, oldErr)
	case m != nil:
		assertSameMessage(t, "direct vs JSON detour", m, old)
	}
}

// checkWellformedLikeFxamacker checks CBORToJSON's verdict on body against
// fxamacker's well-formedness check: what one finds broken, truncated or
// followed by trailing bytes, so does the other; CBORToJSON refuses more
// (keys that are not text, invalid UTF-8, nested tags past the limit).
func checkWellformedLikeFxamacker(t *testing.T, body []byte) {
	t.Helper()
	_, err := CBORToJSON(body)
	fxErr := cborWellformed(body)
	var syntax *cborSyntaxError
	switch {
	case fxErr != nil && err == nil:
		t.Fatalf("CBORToJSON accepts what fxamacker refuses: %v", fxErr)
	case fxErr == nil && (errors.As(err, &syntax) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, ErrCBORTrailingBytes)):
		t.Fatalf("CBORToJSON calls a well-formed body broken: %v", err)
	}
}

func FuzzDiagnoseCBOR(f *testing.F) {
	addCBORSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		s, err := DiagnoseCBOR(body)
		if err == nil && s == "" {
			t.Fatal("empty diagnostic notation without an error")
		}
		if err == nil && cborWellformed(body) != nil {
			t.Fatal("diagnosed a body that is not well formed")
		}
	})
}

func FuzzIDCBOR(f *testing.F) {
	for _, h := range []string{"01", "38 63", "63 616263", "f6", "f7", "fb 3ff0000000000000", "1b ffffffffffffffff", "80"} {
		f.Add(prototest.Unhex(f, h))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var id ID
		if id.UnmarshalCBOR(b) != nil {
			return
		}
		out, err := id.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		var back ID
		if err := back.UnmarshalCBOR(out); err != nil || back.Key() != id.Key() {
			t.Fatalf("id %s came back as %s (%v)", id, back, err)
		}
	})
}

func FuzzLineFields(f *testing.F) {
	f.Add([]byte("{}\n"))
	f.Add([]byte("\r\n"))
	f.Add([]byte("x\r"))
	f.Fuzz(func(t *testing.T, line []byte) {
		prototest.CheckFieldsCover(t, LineFields(line), len(line))
	})
}
