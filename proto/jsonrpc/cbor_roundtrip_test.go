package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
)

// cborRoundTripCorpus holds JSON values in the compact form JSON→CBOR→JSON
// must give back byte for byte.
var cborRoundTripCorpus = []string{
	// key order, including an inputSchema whose properties are not sorted
	`{"z":1,"a":{"y":[true,false,null],"b":"x"},"m":{}}`,
	`{"name":"search","inputSchema":{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer","minimum":1},"after":{"type":"string","format":"date-time"},"caseSensitive":{"type":"boolean"}},"required":["query","limit"]}}`,
	// integers at every head size and at the edges of 64 bits
	`[0,1,23,24,255,256,65535,65536,4294967295,4294967296,9007199254740993,9223372036854775807,18446744073709551615]`,
	`[-1,-24,-25,-256,-257,-65536,-65537,-4294967296,-4294967297,-9223372036854775808,-9223372036854775809,-18446744073709551616]`,
	// floats: float32-exact, float64-only, tiny and huge
	`[0.5,-2.25,0.1,1.5e-7,1e-7,1e+21,1.7976931348623157e+308,5e-324,3.4028234663852886e+38,123456.789]`,
	// unicode and every escape JSON requires
	`{"s":"quote\" back\\ nl\n cr\r tab\t ctl\u0001\u001f del` + "\x7f" + ` uni é ß 中文 😀 html <&> \u0000"}`,
	`["", " ", "\"", "\\", "a\u0000b", "€𝄞", "` + strings.Repeat("x", 300) + `"]`,
	// nesting
	`[[[[[[[[[[{"a":[{"b":[[],{}]}]}]]]]]]]]]]`,
	`{"a":{"b":{"c":{"d":[1,{"e":[2,[3,{"f":null}]]}]}}}}`,
	// containers whose heads need 1, 2 and 3 bytes
	"[" + strings.Repeat("1,", 23) + "1]",
	"[" + strings.Repeat("1,", 299) + "1]",
	`{` + strings.Repeat(`"k":0,`, 70000) + `"k":0}`,
	// scalars at the top
	`"top"`, `42`, `-7`, `0.25`, `true`, `false`, `null`, `[]`, `{}`,
}

// compactJSON compacts s, as the round trip writes it.
func compactJSON(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatalf("corpus entry %.40q is not JSON: %v", s, err)
	}
	return b.String()
}

func TestJSONCBORJSONIsByteExact(t *testing.T) {
	for _, in := range cborRoundTripCorpus {
		want := compactJSON(t, in)
		c, back := roundTripJSON(t, in)
		if string(back) != want {
			t.Fatalf("JSON→CBOR→JSON\n got %.200s\nwant %.200s", back, want)
		}
		// The same CBOR as the token-by-token transcoder wrote.
		if old, err := jsonToCBORByTokens([]byte(in)); err != nil || !bytes.Equal(old, c) {
			t.Fatalf("%.60s: new CBOR % .40x differs from the token transcoder's % .40x (%v)", in, c, old, err)
		}
	}
}

func TestJSONToCBORReadsLikeEncodingJSON(t *testing.T) {
	// Spellings that are not compact JSON come back as encoding/json reads them.
	cases := []struct{ in, want string }{
		{" [ 1 ,\t2\r\n, { \"a\" : [ ] } ] ", `[1,2,{"a":[]}]`},
		{`"\u00e9\/\b\f\u20AC"`, `"é/\u0008\u000c€"`},
		{`"\ud83d\ude00"`, `"😀"`},
		{`"\ud83d"`, `"` + "\uFFFD" + `"`},
		{`"\ud83dx"`, `"` + "\uFFFD" + `x"`},
		{`"\ude00\ud83d\ude00"`, `"` + "\uFFFD" + `😀"`},
		{`"\ud83d\u0041"`, `"` + "\uFFFD" + `A"`},
		{"\"bad \xff utf8 \xe2\x82\"", `"bad ` + "\uFFFD" + ` utf8 ` + "\uFFFD\uFFFD" + `"`},
		{"\"\xed\xa0\x80\"", `"` + strings.Repeat("\uFFFD", 3) + `"`},
		{`[1.0,1e3,-0,-0.0,1E2,2e-1]`, `[1,1000,0,-0,100,0.2]`},
		{`[123456789012345678901234567890]`, `[1.2345678901234568e+29]`},
		{`[-18446744073709551617]`, `[-18446744073709552000]`},
	}
	for _, tc := range cases {
		c, back := roundTripJSON(t, tc.in)
		if string(back) != tc.want {
			t.Fatalf("%q came back as %s, want %s", tc.in, back, tc.want)
		}
		if old, err := jsonToCBORByTokens([]byte(tc.in)); err != nil || !bytes.Equal(old, c) {
			t.Fatalf("%q: new CBOR % x, token transcoder % x (%v)", tc.in, c, old, err)
		}
	}
}

func TestJSONToCBORRefusesWhatEncodingJSONRefuses(t *testing.T) {
	bad := []string{
		``, ` `, `{`, `[`, `]`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `[,1]`, `{1:2}`, `{"a"}`, `1 2`, `{"a":1}x`,
		`01`, `-`, `1.`, `.5`, `1e`, `1e+`, `+1`, `0x10`, `tru`, `nul`, `True`, `"abc`, `"\x"`, `"\u12"`,
		`"\u12g4"`, "\"a\x01b\"", "\"tab\tin\"", `'a'`, `[1]]`, `NaN`, `Infinity`,
	}
	for _, in := range bad {
		if _, err := JSONToCBOR([]byte(in)); err == nil {
			t.Errorf("JSONToCBOR(%q) accepted it", in)
		}
		if json.Valid([]byte(in)) {
			t.Errorf("test case %q is valid JSON", in)
		}
	}
	if _, err := JSONToCBOR([]byte(`[1e400]`)); !errors.Is(err, errNumberRange) {
		t.Errorf("1e400: err = %v, want errNumberRange", err)
	}
}

func TestCBORMessageRoundTripIsByteExact(t *testing.T) {
	bodies := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":"req-α","method":"tools/call","params":{"name":"echo","arguments":{"z":1,"a":[1.5,"x",null]}}}`,
		`{"jsonrpc":"2.0","id":9223372036854775807,"result":{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"zeta":{"type":"number"},"alpha":{"type":"string"}}}}]}}`,
		`{"jsonrpc":"2.0","id":-9223372036854775808,"result":{}}`,
		`{"jsonrpc":"2.0","id":"x","error":{"code":-32700,"message":"Parse error"}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"bad \"x\"","data":{"path":["a",0],"big":18446744073709551615}}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":0.5,"total":1}}`,
		`{"jsonrpc":"2.0","id":7,"result":null}`,
	}
	for _, body := range bodies {
		m, err := Decode(proto.EncJSON, []byte(body))
		if err != nil {
			t.Fatalf("Decode(json, %s): %v", body, err)
		}
		c, err := Encode(proto.EncCBOR, m)
		if err != nil {
			t.Fatalf("Encode(cbor): %v", err)
		}
		if old, err := encodeCBORViaJSON(m); err != nil || !bytes.Equal(old, c) {
			t.Fatalf("%s: direct CBOR % x, via JSON % x (%v)", body, c, old, err)
		}
		back, err := Decode(proto.EncCBOR, c)
		if err != nil {
			t.Fatalf("Decode(cbor) of %s: %v", body, err)
		}
		j, err := back.EncodeJSON()
		if err != nil || string(j) != body {
			t.Fatalf("JSON→CBOR→JSON of a message\n got %s\nwant %s (%v)", j, body, err)
		}
	}
}
