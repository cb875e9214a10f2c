package client

import (
	"encoding/json"
	"testing"
)

func TestWithMetaKeepsOrderAndCallerKeys(t *testing.T) {
	meta := []member{{Key: "v", Value: json.RawMessage(`"1"`)}, {Key: "mine", Value: json.RawMessage(`"engine"`)}}
	cases := map[string]string{
		``:                              `{"_meta":{"v":"1","mine":"engine"}}`,
		`null`:                          `{"_meta":{"v":"1","mine":"engine"}}`,
		`{"b":1,"a":2}`:                 `{"_meta":{"v":"1","mine":"engine"},"b":1,"a":2}`,
		`{"b":1,"_meta":{"mine":"me"}}`: `{"b":1,"_meta":{"mine":"me","v":"1"}}`,
		` { "x" : [ 1 , 2 ] } `:         `{"_meta":{"v":"1","mine":"engine"},"x":[ 1 , 2 ]}`,
		`{"_meta":{"progressToken":3}}`: `{"_meta":{"progressToken":3,"v":"1","mine":"engine"}}`,
	}
	for in, want := range cases {
		got, err := withMeta(json.RawMessage(in), meta, false)
		if err != nil || string(got) != want {
			t.Errorf("withMeta(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{`[1]`, `"s"`, `{"_meta":5}`, `{"a":1} {"b":2}`, `{"a":}`} {
		if _, err := withMeta(json.RawMessage(bad), meta, false); err == nil {
			t.Errorf("withMeta(%s) accepted params that cannot carry _meta", bad)
		}
	}
}

// FuzzObjectMembers: no input panics the params splitter, and an accepted
// object survives re-encoding as valid JSON with the same members.
func FuzzObjectMembers(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1,"b":{"c":[1,2]}}`, `null`, `[]`, `{"a":1}x`, `{"a"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ms, err := objectMembers(b)
		if err != nil {
			return
		}
		out := encodeMembers(ms)
		if !json.Valid(out) {
			t.Fatalf("%s re-encoded as invalid JSON %s", b, out)
		}
		again, err := objectMembers(out)
		if err != nil || len(again) != len(ms) {
			t.Fatalf("%s: members changed on re-encoding (%v)", out, err)
		}
		if _, err := withMeta(b, []member{{Key: "k", Value: json.RawMessage(`1`)}}, true); err != nil && ms != nil {
			var probe map[string]json.RawMessage
			if json.Unmarshal(b, &probe) == nil && probe["_meta"] == nil {
				t.Fatalf("withMeta refused %s: %v", b, err)
			}
		}
	})
}
