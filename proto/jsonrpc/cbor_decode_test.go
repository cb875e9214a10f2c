package jsonrpc

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/internal/prototest"
)

// cborOf transcodes a JSON body for a test.
func cborOf(t testing.TB, body string) []byte {
	t.Helper()
	c, err := JSONToCBOR([]byte(body))
	if err != nil {
		t.Fatalf("JSONToCBOR(%s): %v", body, err)
	}
	return c
}

func TestCBORDecodeReportsDuplicateKeys(t *testing.T) {
	cases := []struct{ name, body, key string }{
		{"id twice", `{"jsonrpc":"2.0","id":1,"id":2,"result":{}}`, `"id"`},
		{"id as integer then string", `{"jsonrpc":"2.0","id":3,"result":{},"id":"3"}`, `"id"`},
		{"result twice", `{"jsonrpc":"2.0","id":4,"result":1,"result":2}`, `"result"`},
		{"unknown key twice", `{"jsonrpc":"2.0","id":5,"x":1,"method":"m","x":2}`, `"x"`},
		{"error code twice", `{"jsonrpc":"2.0","id":6,"error":{"code":1,"message":"m","code":2}}`, `"code"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := cborOf(t, tc.body)
			m, err := Decode(proto.EncCBOR, body)
			if !errors.Is(err, ErrCBORDuplicateKey) || !strings.Contains(err.Error(), tc.key) {
				t.Fatalf("err = %v, want ErrCBORDuplicateKey naming %s", err, tc.key)
			}
			if m == nil || m.ID == nil || !bytes.Equal(m.Raw, body) {
				t.Fatalf("the message with its readable id should come with the error, got %+v", m)
			}
			if _, _, err := DecodeBatch(proto.EncCBOR, append([]byte{0x81}, body...)); !errors.Is(err, ErrCBORDuplicateKey) {
				t.Fatalf("batch item: err = %v, want ErrCBORDuplicateKey", err)
			}
		})
	}
	// Many distinct keys are no duplicate; one repeated far apart is.
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":1,"result":{}`)
	for i := range 100 {
		b.WriteString(`,"k` + strings.Repeat("x", i) + `":0`)
	}
	if _, err := Decode(proto.EncCBOR, cborOf(t, b.String()+`}`)); err != nil {
		t.Fatalf("100 distinct keys: %v", err)
	}
	if _, err := Decode(proto.EncCBOR, cborOf(t, b.String()+`,"kxxx":1}`)); !errors.Is(err, ErrCBORDuplicateKey) {
		t.Fatalf("a key repeated after 100 others: err = %v", err)
	}
}

func TestCBORDecodeReportsTrailingBytes(t *testing.T) {
	body := cborOf(t, `{"jsonrpc":"2.0","id":8,"result":{}}`)
	for _, extra := range [][]byte{{0x00}, {0xff}, cborOf(t, `{"jsonrpc":"2.0","id":9,"result":{}}`)} {
		in := append(append([]byte(nil), body...), extra...)
		m, err := Decode(proto.EncCBOR, in)
		if !errors.Is(err, ErrCBORTrailingBytes) || !strings.Contains(err.Error(), "trailing bytes") {
			t.Fatalf("% x: err = %v, want ErrCBORTrailingBytes", extra, err)
		}
		if m == nil || m.ID.String() != "8" {
			t.Fatalf("the message with its readable id should come with the error, got %+v", m)
		}
		if _, _, err := DecodeBatch(proto.EncCBOR, in); !errors.Is(err, ErrCBORTrailingBytes) {
			t.Fatalf("DecodeBatch: err = %v", err)
		}
		if _, _, err := DecodeBatch(proto.EncCBOR, append(append([]byte{0x81}, body...), extra...)); !errors.Is(err, ErrCBORTrailingBytes) {
			t.Fatalf("DecodeBatch of an array: err = %v", err)
		}
		if _, err := CBORToJSON(in); !errors.Is(err, ErrCBORTrailingBytes) {
			t.Fatalf("CBORToJSON: err = %v", err)
		}
	}
}

func TestCBORDecodeReportsNestingOverTheLimit(t *testing.T) {
	nest := func(levels int, open byte) []byte {
		params := append(bytes.Repeat([]byte{open}, levels), 0x01)
		if open == 0xa1 { // maps: each level is {"k": …}
			params = append(bytes.Repeat([]byte{0xa1, 0x61, 'k'}, levels), 0x01)
		}
		head := cborOf(t, `{"jsonrpc":"2.0","id":10,"method":"m"}`)
		head[0]++ // one more pair: params
		return append(append(head, 0x66, 'p', 'a', 'r', 'a', 'm', 's'), params...)
	}
	for _, open := range []byte{0x81, 0xa1, 0xc1} { // arrays, maps, tags
		// The message map is one level, so params may hold 127 more.
		if m, err := Decode(proto.EncCBOR, nest(CBORMaxNestedLevels-1, open)); err != nil || m.Method != "m" {
			t.Fatalf("%#x: nesting at the limit refused: %v", open, err)
		}
		body := nest(CBORMaxNestedLevels, open)
		if _, err := Decode(proto.EncCBOR, body); !errors.Is(err, ErrCBORTooDeep) || !strings.Contains(err.Error(), "nests deeper than 128 levels") {
			t.Fatalf("%#x: err = %v, want ErrCBORTooDeep", open, err)
		}
		if _, err := CBORToJSON(body); !errors.Is(err, ErrCBORTooDeep) {
			t.Fatalf("%#x: CBORToJSON err = %v", open, err)
		}
	}
	// 100k levels fail the same way, without exhausting the stack.
	deep := append(bytes.Repeat([]byte{0x81}, 100_000), 0x01)
	if _, err := Decode(proto.EncCBOR, deep); !errors.Is(err, ErrCBORTooDeep) {
		t.Fatalf("100k levels: err = %v", err)
	}
}

func TestCBORDecodeRefusesEveryTruncation(t *testing.T) {
	body := cborOf(t, `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"x","arguments":{"n":[1,-300,70000,4294967296,0.5,0.1,true,null,"text"]}}}`)
	for n := range len(body) {
		cut := body[:n]
		m, err := Decode(proto.EncCBOR, cut)
		// Once the id is read, the cut message comes back carrying the
		// error as its Violation, so the request it answers fails at once.
		if err == nil || m != nil && (m.Violation == nil || m.ID == nil || m.ID.String() != "11") {
			t.Fatalf("%d of %d bytes: m=%v err=%v", n, len(body), m, err)
		}
		if n > 0 && !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("%d bytes: err = %v, want a truncation", n, err)
		}
		if _, err := CBORToJSON(cut); err == nil {
			t.Fatalf("CBORToJSON accepted %d of %d bytes", n, len(body))
		}
		if _, _, err := DecodeBatch(proto.EncCBOR, cut); err == nil {
			t.Fatalf("DecodeBatch accepted %d of %d bytes", n, len(body))
		}
	}
}

func TestCBORDecodeChecksSizesBeforeAllocating(t *testing.T) {
	// Heads that declare huge lengths in a few bytes must fail without
	// allocating for them.
	huge := []string{
		"5b 7fffffffffffffff",    // byte string of 2^63-1 bytes
		"7b ffffffffffffffff 61", // text string of 2^64-1 bytes
		"9b 00000000ffffffff",    // array of 2^32-1 elements
		"bb 00000000ffffffff",    // map of 2^32-1 pairs
		"9a 00100001 01",         // array one past the limit
		"a1 66 706172616d73 5a 7fffffff",
	}
	for _, h := range huge {
		in := prototest.Unhex(t, h)
		allocs := testing.AllocsPerRun(10, func() {
			if _, err := Decode(proto.EncCBOR, in); err == nil {
				t.Fatalf("%s accepted", h)
			}
		})
		if allocs > 20 {
			t.Fatalf("%s: %v allocations for a few bytes of input", h, allocs)
		}
	}
}

func TestCBORDecodeLeavesOddMembersToTheJSONRules(t *testing.T) {
	// Values only the JSON rules decide go through CBORToJSON and
	// DecodeMessage, and come out as they always did.
	cases := []string{
		"a3 67 6a736f6e727063 63 322e30 62 6964 f9 4000 66 726573756c74 a0",                                      // id 2.0 as a half float
		"a3 67 6a736f6e727063 63 322e30 62 4944 07 66 726573756c74 a0",                                           // key "ID"
		"a3 67 6a736f6e727063 63 322e30 62 6964 c1 07 66 726573756c74 a0",                                        // tagged id
		"a3 67 6a736f6e727063 01 62 6964 07 66 726573756c74 a0",                                                  // jsonrpc 1
		"a3 67 6a736f6e727063 63 322e30 62 6964 1b ffffffffffffffff 66 726573756c74 a0",                          // id past int64
		"a3 67 6a736f6e727063 63 322e30 62 6964 07 65 6572726f72 a2 64 636f6465 f9 3c00 67 6d657373616765 61 78", // code 1.0
		"a3 67 6a736f6e727063 63 322e30 62 6964 07 65 6572726f72 07",                                             // error 7
		"a3 67 6a736f6e727063 63 322e30 62 6964 07 66 6d6574686f64 43 616263",                                    // method as bytes
		"83 01 02 03", // not a map
	}
	for _, h := range cases {
		in := prototest.Unhex(t, h)
		m, err := Decode(proto.EncCBOR, in)
		old, oldErr := decodeCBORViaJSON(in)
		if (err == nil) != (oldErr == nil) || (m == nil) != (old == nil) {
			t.Fatalf("%s: direct m=%v err=%v, via JSON m=%v err=%v", h, m, err, old, oldErr)
		}
		if m != nil {
			assertSameMessage(t, h, m, old)
		}
	}
}

// assertSameMessage fails unless got and want hold the same data.
func assertSameMessage(t *testing.T, what string, got, want *Message) {
	t.Helper()
	idKey := func(id *ID) string {
		if id == nil {
			return "absent"
		}
		return id.Key()
	}
	sameError := (got.Error == nil) == (want.Error == nil)
	if sameError && got.Error != nil {
		sameError = got.Error.Code == want.Error.Code && got.Error.Message == want.Error.Message &&
			bytes.Equal(got.Error.Data, want.Error.Data)
	}
	if !sameError || got.JSONRPC != want.JSONRPC || idKey(got.ID) != idKey(want.ID) || got.Method != want.Method ||
		!bytes.Equal(got.Params, want.Params) || !bytes.Equal(got.Result, want.Result) || !bytes.Equal(got.Raw, want.Raw) {
		t.Fatalf("%s: decoded directly %+v (error %+v), via JSON %+v (error %+v)", what, got, got.Error, want, want.Error)
	}
}
