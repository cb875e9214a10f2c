package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/internal/prototest"
)

// roundTripJSON takes a JSON body through CBOR and back to JSON.
func roundTripJSON(t *testing.T, body string) (cborBody, back []byte) {
	t.Helper()
	c, err := JSONToCBOR([]byte(body))
	if err != nil {
		t.Fatalf("JSONToCBOR(%s): %v", body, err)
	}
	j, err := CBORToJSON(c)
	if err != nil {
		t.Fatalf("CBORToJSON(% x): %v", c, err)
	}
	return c, j
}

func TestJSONCBORRoundTripKeepsValues(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"int id", `{"jsonrpc":"2.0","id":7,"method":"ping"}`, ""},
		{"string id that looks like a number", `{"jsonrpc":"2.0","id":"7","method":"ping"}`, ""},
		{"null id", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, ""},
		{"max uint64", `[18446744073709551615]`, ""},
		{"min negative CBOR int", `[-18446744073709551616]`, ""},
		{"int beyond float precision", `{"n":9007199254740993}`, ""},
		{"min int64", `[-9223372036854775808]`, ""},
		{"floats", `[0.5,-2.25,0.1,1e-7,1e+21,3.4028234663852886e+38]`, ""},
		{"integral float spellings", `[1.0,1e3,-0]`, `[1,1000,0]`},
		{"huge integer becomes float", `[123456789012345678901234567890]`, `[1.2345678901234568e+29]`},
		{"key order kept", `{"z":1,"a":{"y":[true,false,null],"b":"x"},"m":{}}`, ""},
		{"escapes", `{"s":"quote\" back\\ nl\n tab\t ctl\u0001 uni é 😀 html <&>"}`, ""},
		{"empty containers", `[[],{},""]`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, back := roundTripJSON(t, tc.in)
			want := tc.want
			if want == "" {
				want = tc.in
			}
			if string(back) != want {
				t.Fatalf("JSON→CBOR→JSON\n got %s\nwant %s", back, want)
			}
		})
	}
}

func TestCBOREncodingIsExact(t *testing.T) {
	// {"jsonrpc":"2.0","id":1,"method":"ping"} with text keys, in JSON order.
	want := prototest.Unhex(t, "a3 67 6a736f6e727063 63 322e30 62 6964 01 66 6d6574686f64 64 70696e67")
	m, err := NewRequest(IntID(1), "ping", nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Encode(proto.EncCBOR, m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("Encode(cbor)\n got % x\nwant % x", got, want)
	}
	cases := []struct{ json, cbor string }{
		{`-1`, "20"},
		{`-25`, "38 18"},
		{`24`, "18 18"},
		{`65536`, "1a 00010000"},
		{`4294967296`, "1b 0000000100000000"},
		{`0.5`, "fa 3f000000"},
		{`0.1`, "fb 3fb999999999999a"},
		{`[1,[2]]`, "82 01 81 02"},
		{`true`, "f5"},
		{`false`, "f4"},
		{`null`, "f6"},
	}
	for _, tc := range cases {
		got, err := JSONToCBOR([]byte(tc.json))
		if err != nil {
			t.Fatalf("JSONToCBOR(%s): %v", tc.json, err)
		}
		if w := prototest.Unhex(t, tc.cbor); !bytes.Equal(got, w) {
			t.Errorf("JSONToCBOR(%s) = % x, want % x", tc.json, got, w)
		}
	}
	// A container with 24+ members needs a longer head: the members must move back correctly.
	long := "[" + strings.Repeat("1,", 299) + "1]"
	got, err = JSONToCBOR([]byte(long))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got[:3], []byte{0x99, 0x01, 0x2c}) || len(got) != 303 {
		t.Fatalf("300-element array head % x, len %d", got[:3], len(got))
	}
}

func TestCBORIsReadableByAnotherDecoder(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"add","arguments":{"a":-3,"b":2.5,"s":"x"}}}`
	c, err := JSONToCBOR([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := cbor.Unmarshal(c, &v); err != nil {
		t.Fatalf("fxamacker cannot read our CBOR: %v", err)
	}
	if id, ok := v["id"].(uint64); !ok || id != 42 {
		t.Fatalf("id decoded as %T %v, want uint64 42", v["id"], v["id"])
	}
	args := v["params"].(map[any]any)["arguments"].(map[any]any)
	if a, ok := args["a"].(int64); !ok || a != -3 {
		t.Fatalf("a decoded as %T %v, want int64 -3", args["a"], args["a"])
	}
	// And the other way: a map written by another encoder, keys in its order.
	other, err := cbor.Marshal(map[string]any{"jsonrpc": "2.0", "id": uint64(9), "result": map[string]any{"ok": true}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(proto.EncCBOR, other)
	if err != nil {
		t.Fatalf("Decode(other encoder): %v", err)
	}
	if n, ok := m.ID.Int(); !ok || n != 9 || string(m.Result) != `{"ok":true}` || !bytes.Equal(m.Raw, other) {
		t.Fatalf("decoded %v result %s raw % x", m.ID, m.Result, m.Raw)
	}
}

func TestDecodeKeepsIDKindsAcrossEncodings(t *testing.T) {
	cases := []struct {
		body   string
		isStr  bool
		wantID string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, false, "1"},
		{`{"jsonrpc":"2.0","id":4294967295,"result":{}}`, false, "4294967295"},
		{`{"jsonrpc":"2.0","id":-5,"result":{}}`, false, "-5"},
		{`{"jsonrpc":"2.0","id":"1","method":"tools/list"}`, true, `"1"`},
		{`{"jsonrpc":"2.0","id":"req-α","result":{}}`, true, `"req-α"`},
	}
	for _, tc := range cases {
		for _, enc := range []proto.Encoding{proto.EncJSON, proto.EncCBOR} {
			in := []byte(tc.body)
			if enc == proto.EncCBOR {
				var err error
				if in, err = JSONToCBOR(in); err != nil {
					t.Fatal(err)
				}
			}
			m, err := Decode(enc, in)
			if err != nil {
				t.Fatalf("%s Decode(%s): %v", enc, tc.body, err)
			}
			if m.ID.IsString() != tc.isStr || m.ID.String() != tc.wantID {
				t.Fatalf("%s id = %s (string %v), want %s", enc, m.ID, m.ID.IsString(), tc.wantID)
			}
			if !bytes.Equal(m.Raw, in) {
				t.Fatalf("%s Raw is not the body", enc)
			}
			// Re-encode in the same encoding: JSON→CBOR→JSON keeps the id kind.
			out, err := Encode(enc, m)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Decode(enc, out)
			if err != nil {
				t.Fatal(err)
			}
			if back.ID.Key() != m.ID.Key() {
				t.Fatalf("%s re-encode changed id %s to %s", enc, m.ID, back.ID)
			}
		}
	}
}

func TestDecodeToleratesUnknownFieldsAndReportsInvalid(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":3,"method":"x","extra":{"deep":[1,2]},"_meta":null}`
	for _, enc := range []proto.Encoding{proto.EncJSON, proto.EncCBOR} {
		in := []byte(body)
		if enc == proto.EncCBOR {
			in, _ = JSONToCBOR(in)
		}
		m, err := Decode(enc, in)
		if err != nil || m.Kind() != KindRequest {
			t.Fatalf("%s: unknown fields rejected: %v", enc, err)
		}
		bad := []byte(`{"jsonrpc":"1.0","id":3,"method":"x"}`)
		if enc == proto.EncCBOR {
			bad, _ = JSONToCBOR(bad)
		}
		m, err = Decode(enc, bad)
		if err == nil || m == nil || !strings.Contains(err.Error(), "jsonrpc") {
			t.Fatalf("%s: wrong version gave m=%v err=%v, want the message and an error", enc, m, err)
		}
	}
}

func TestDecodeBatch(t *testing.T) {
	body := `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}]`
	for _, enc := range []proto.Encoding{proto.EncJSON, proto.EncCBOR} {
		in := []byte(body)
		if enc == proto.EncCBOR {
			in, _ = JSONToCBOR(in)
		}
		msgs, batch, err := DecodeBatch(enc, in)
		if err != nil || !batch || len(msgs) != 2 {
			t.Fatalf("%s: batch=%v n=%d err=%v", enc, batch, len(msgs), err)
		}
		if msgs[0].Kind() != KindResult || msgs[1].Kind() != KindNotification {
			t.Fatalf("%s: kinds %s %s", enc, msgs[0].Kind(), msgs[1].Kind())
		}
		if enc == proto.EncCBOR {
			// Each item keeps its own CBOR bytes, which decode alone.
			if !bytes.Equal(append(append([]byte{0x82}, msgs[0].Raw...), msgs[1].Raw...), in) {
				t.Fatalf("batch item Raw does not tile the body")
			}
			if m, err := Decode(proto.EncCBOR, msgs[1].Raw); err != nil || m.Method != "notifications/progress" {
				t.Fatalf("item Raw does not decode alone: %v", err)
			}
		}
		single := []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)
		if enc == proto.EncCBOR {
			single, _ = JSONToCBOR(single)
		}
		if msgs, batch, err := DecodeBatch(enc, single); err != nil || batch || len(msgs) != 1 {
			t.Fatalf("%s single: batch=%v n=%d err=%v", enc, batch, len(msgs), err)
		}
		empty := []byte(`[]`)
		if enc == proto.EncCBOR {
			empty = []byte{0x80}
		}
		if _, _, err := DecodeBatch(enc, empty); err == nil {
			t.Fatalf("%s: empty batch accepted", enc)
		}
	}
	// An indefinite-length CBOR array of messages is a batch too.
	item, _ := JSONToCBOR([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	indef := append(append([]byte{0x9f}, item...), 0xff)
	if msgs, batch, err := DecodeBatch(proto.EncCBOR, indef); err != nil || !batch || len(msgs) != 1 {
		t.Fatalf("indefinite batch: batch=%v n=%d err=%v", batch, len(msgs), err)
	}
}

func TestCBORToJSONConversions(t *testing.T) {
	cases := []struct{ name, cbor, want string }{
		{"byte string is base64url without padding", "43 fbff01", `"-_8B"`},
		{"tag 22 asks for base64", "d6 43 fbff01", `"+/8B"`},
		{"tag 23 asks for hex", "d7 82 42 0aff 61 41", `["0aff","A"]`},
		{"negative bignum gets a tilde", "c3 42 0100", `"~AQA"`},
		{"positive bignum", "c2 42 0100", `"AQA"`},
		{"other tags are dropped", "c1 1a 5f5e1000", `1600000000`},
		{"indefinite text", "7f 62 6162 61 63 ff", `"abc"`},
		{"indefinite bytes", "5f 41 01 41 02 ff", `"AQI"`},
		{"indefinite map", "bf 61 61 01 ff", `{"a":1}`},
		{"indefinite array", "9f 01 9f ff ff", `[1,[]]`},
		{"half float", "f9 3c00", `1`},
		{"half subnormal", "f9 0001", `5.960464477539063e-8`},
		{"NaN becomes null", "f9 7e00", `null`},
		{"infinity becomes null", "fa 7f800000", `null`},
		{"undefined becomes null", "f7", `null`},
		{"simple 16 becomes null", "f0", `null`},
		{"simple 255 via one-byte form", "f8 ff", `null`},
		{"most negative", "3b ffffffffffffffff", `-18446744073709551616`},
		{"min int64", "3b 7fffffffffffffff", `-9223372036854775808`},
		{"control characters escaped", "62 0001", `"\u0000\u0001"`},
		{"tagged key", "a1 c1 61 6b 01", `{"k":1}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CBORToJSON(prototest.Unhex(t, tc.cbor))
			if err != nil {
				t.Fatalf("CBORToJSON: %v", err)
			}
			if string(got) != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
			if !json.Valid(got) {
				t.Fatalf("output %s is not valid JSON", got)
			}
		})
	}
}

func TestCBORToJSONRejects(t *testing.T) {
	deep := bytes.Repeat([]byte{0x81}, CBORMaxNestedLevels+1)
	deep = append(deep, 0x01)
	cases := []struct {
		name, hex string
		raw       []byte
		want      string
	}{
		{"empty", "", nil, "empty"},
		{"integer key", "a1 01 02", nil, "map key at offset 1 has type unsigned integer"},
		{"byte string key", "a1 41 00 02", nil, "only text-string keys"},
		{"array key", "a1 80 02", nil, "map key"},
		{"trailing bytes", "01 02", nil, "trailing bytes"},
		{"truncated text", "65 6162", nil, "truncated"},
		{"truncated map", "a2 61 61 01", nil, "truncated"},
		{"truncated head", "1b 0001", nil, "truncated"},
		{"huge declared array", "9b 7fffffffffffffff", nil, "has more than 1048576 elements"},
		{"reserved info", "1c", nil, "malformed"},
		{"lone break", "ff", nil, "malformed"},
		{"invalid UTF-8", "62 c328", nil, "UTF-8"},
		{"too deep", "", deep, "nests deeper than 128 levels"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.raw
			if in == nil {
				in = prototest.Unhex(t, tc.hex)
			}
			_, err := CBORToJSON(in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, tc.want)
			}
			if _, err := Decode(proto.EncCBOR, in); err == nil {
				t.Fatalf("Decode accepted it")
			}
		})
	}
}

func TestJSONToCBORRejects(t *testing.T) {
	deep := strings.Repeat("[", CBORMaxNestedLevels+1) + strings.Repeat("]", CBORMaxNestedLevels+1)
	for _, in := range []string{``, `{`, `{"a" 1}`, `[1,]`, `1 2`, `{"a":1}x`, `1e400`, deep} {
		if _, err := JSONToCBOR([]byte(in)); err == nil {
			t.Errorf("JSONToCBOR(%.30q) accepted it", in)
		}
	}
	ok := strings.Repeat("[", CBORMaxNestedLevels) + strings.Repeat("]", CBORMaxNestedLevels)
	c, err := JSONToCBOR([]byte(ok))
	if err != nil {
		t.Fatalf("nesting at the limit refused: %v", err)
	}
	if _, err := CBORToJSON(c); err != nil {
		t.Fatalf("CBORToJSON refuses what JSONToCBOR wrote: %v", err)
	}
}

func TestIDThroughAnotherCBOREncoder(t *testing.T) {
	type env struct {
		ID *ID `cbor:"id"`
	}
	for _, id := range []ID{IntID(0), IntID(-7), IntID(1 << 40), StringID("abc"), StringID("12"), {}} {
		b, err := cbor.Marshal(env{ID: &id})
		if err != nil {
			t.Fatalf("Marshal(%s): %v", id, err)
		}
		var back env
		if err := cbor.Unmarshal(b, &back); err != nil {
			t.Fatalf("Unmarshal(% x): %v", b, err)
		}
		got := ID{}
		if back.ID != nil {
			got = *back.ID
		}
		if got.Key() != id.Key() {
			t.Fatalf("id %s came back as %s", id, got)
		}
	}
	var id ID
	for _, bad := range []string{"80", "a0", "f5", "fa 3fc00000"} {
		if err := id.UnmarshalCBOR(prototest.Unhex(t, bad)); err == nil {
			t.Errorf("UnmarshalCBOR(%s) accepted a non-id", bad)
		}
	}
	if err := id.UnmarshalCBOR(prototest.Unhex(t, "f9 4000")); err != nil || id.String() != "2" {
		t.Errorf("integral float id 2.0: %v %s", err, id)
	}
}

func TestDiagnoseAndPretty(t *testing.T) {
	c, err := JSONToCBOR([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	d, err := DiagnoseCBOR(c)
	if err != nil || d != `{"jsonrpc": "2.0", "id": 1, "method": "ping"}` {
		t.Fatalf("DiagnoseCBOR = %q, %v", d, err)
	}
	if d, err := DiagnoseCBOR(prototest.Unhex(t, "a1 01 43 010203")); err != nil || d != `{1: h'010203'}` {
		t.Fatalf("DiagnoseCBOR of a non-JSON map = %q, %v", d, err)
	}
	for _, bad := range []string{"", "01 02", "62 61"} {
		if _, err := DiagnoseCBOR(prototest.Unhex(t, bad)); err == nil {
			t.Errorf("DiagnoseCBOR(%q) accepted it", bad)
		}
	}
	p, err := PrettyJSON([]byte(`{"a":[1,{"b":"<x>"}]}`))
	if err != nil || string(p) != "{\n  \"a\": [\n    1,\n    {\n      \"b\": \"<x>\"\n    }\n  ]\n}" {
		t.Fatalf("PrettyJSON = %q, %v", p, err)
	}
	if _, err := PrettyJSON([]byte(`{"a":`)); err == nil {
		t.Fatal("PrettyJSON accepted broken JSON")
	}
}

func TestCodecFor(t *testing.T) {
	for _, enc := range []proto.Encoding{proto.EncJSON, proto.EncCBOR} {
		c, err := CodecFor(enc)
		if err != nil || c.Encoding() != enc {
			t.Fatalf("CodecFor(%s) = %v, %v", enc, c, err)
		}
	}
	for _, enc := range []proto.Encoding{proto.EncBinary, proto.EncText, proto.Encoding(200)} {
		if _, err := CodecFor(enc); !errors.Is(err, ErrUnsupportedEncoding) {
			t.Fatalf("CodecFor(%d) err = %v", enc, err)
		}
		if _, err := Decode(enc, []byte(`{}`)); !errors.Is(err, ErrUnsupportedEncoding) {
			t.Fatalf("Decode(%d) err = %v", enc, err)
		}
	}
}
