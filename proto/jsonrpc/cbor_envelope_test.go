package jsonrpc

import (
	"errors"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
)

// TestCBORBrokenAnswersCarryTheirID checks that the CBOR decoder applies the
// same envelope rules as the JSON one and hands back the message carrying
// the violation whenever the id could be read, so the request fails at once.
func TestCBORBrokenAnswersCarryTheirID(t *testing.T) {
	cases := []struct {
		name, body, reason string
		cut                int // bytes cut off the end of the CBOR body
		extra              []byte
	}{
		{name: "jsonrpc 1.0", body: `{"jsonrpc":"1.0","id":7,"result":{}}`, reason: `"jsonrpc" is "1.0", want "2.0"`},
		{name: "error null", body: `{"jsonrpc":"2.0","id":7,"error":null}`, reason: `"error" is null`},
		{name: "both", body: `{"jsonrpc":"2.0","id":7,"result":{},"error":{"code":1,"message":"x"}}`, reason: `it has both "result" and "error"`},
		{name: "neither", body: `{"jsonrpc":"2.0","id":7}`, reason: `it has neither "result" nor "error"`},
		{name: "id twice", body: `{"jsonrpc":"2.0","id":7,"id":8,"result":{}}`, reason: `it has "id" twice`},
		{name: "cut short", body: `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hello"}]}}`, cut: 4},
		{name: "trailing bytes", body: `{"jsonrpc":"2.0","id":7,"result":{}}`, extra: []byte{0x01}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := cborOf(t, tc.body)
			body = append(body[:len(body)-tc.cut], tc.extra...)
			m, err := Decode(proto.EncCBOR, body)
			var env *EnvelopeError
			if !errors.As(err, &env) {
				t.Fatalf("err = %v (%T), want an *EnvelopeError", err, err)
			}
			if tc.reason != "" && env.Reason != tc.reason {
				t.Fatalf("reason = %q, want %q", env.Reason, tc.reason)
			}
			if m == nil || m.Violation == nil || m.ID == nil || m.ID.String() != "7" {
				t.Fatalf("message = %+v, want id 7 carrying the violation", m)
			}
			if m.Kind() != KindInvalid {
				t.Fatalf("a violation's kind is %s, want invalid", m.Kind())
			}
		})
	}
}
