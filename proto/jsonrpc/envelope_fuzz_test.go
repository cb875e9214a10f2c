package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// envelopeSeeds are broken and well-formed bodies the envelope fuzz
// targets start from.
var envelopeSeeds = []string{
	`{"jsonrpc":"2.0","id":3,"result":{},"error":{"code":1,"message":"x"}}`,
	`{"jsonrpc":"1.0","id":3,"result":{}}`, `{"jsonrpc":"2.0","id":3,"error":null}`,
	`{"jsonrpc":"2.0","id":3,"error":{"code":-32000.5,"message":"x"}}`,
	`{"jsonrpc":"2.0","id":3,"result":{}} garbage`, `{"jsonrpc":"2.0","id":3,"\u0069d":4,"result":{}}`,
	`{"jsonrpc":"2.0","id":"3","result":[[[[[[[[]]]]]]]]}`, "\uFEFF" + `{"jsonrpc":"2.0","id":1,"result":"\"\\"}`,
	`{"jsonrpc":"2.0","id":123456789012345678901234,"result":{}}`, `{"a":tru}`, `{"a" 1}`, `{`, `{"`,
}

// FuzzDecodeMessageAgainstEncodingJSON: a body DecodeMessage accepts is
// one encoding/json reads the same way; a violation message holds only
// what it should.
func FuzzDecodeMessageAgainstEncodingJSON(f *testing.F) {
	for _, s := range append(envelopeSeeds, jsonSeeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		m, err := DecodeMessage(body)
		if err != nil {
			var env *EnvelopeError
			if m != nil && (m.Violation != err || !errors.As(err, &env) || len(env.IDs) == 0 || m.ID.Key() != env.IDs[0].Key() || m.Kind() != KindInvalid) {
				t.Fatalf("violation message %+v for %v", m, err)
			}
			return
		}
		var old Message // decoded by encoding/json alone, through its tags
		if foldsAName(withoutBOM(body)) {
			return // encoding/json matches member names case-insensitively; JSON-RPC does not
		}
		if err := json.Unmarshal(withoutBOM(body), &old); err != nil {
			t.Fatalf("DecodeMessage accepted %q, encoding/json did not: %v", body, err)
		}
		same := old.JSONRPC == m.JSONRPC && old.Method == m.Method && bytes.Equal(old.Params, m.Params) &&
			bytes.Equal(old.Result, m.Result) && (old.ID == nil) == (m.ID == nil) && (m.ID == nil || old.ID.Key() == m.ID.Key()) &&
			(old.Error == nil) == (m.Error == nil)
		if same && m.Error != nil {
			same = old.Error.Code == m.Error.Code && old.Error.Message == m.Error.Message && bytes.Equal(old.Error.Data, m.Error.Data)
		}
		if !same {
			t.Fatalf("%q: DecodeMessage %+v, encoding/json %+v", body, m, old)
		}
		if m.Validate() != nil || !bytes.Equal(m.Raw, body) {
			t.Fatalf("%q: decoded message is invalid or lost its body", body)
		}
	})
}

// foldsAName reports whether an object, or its "error" object, has a
// member whose name is one JSON-RPC gives a meaning to in another case.
func foldsAName(body []byte) bool {
	var top, inner map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return false
	}
	_ = json.Unmarshal(top["error"], &inner)
	folds := func(ms map[string]json.RawMessage, names ...string) bool {
		for k := range ms {
			for _, n := range names {
				if k != n && strings.EqualFold(k, n) {
					return true
				}
			}
		}
		return false
	}
	return folds(top, "jsonrpc", "id", "method", "params", "result", "error") || folds(inner, "code", "message", "data")
}

// FuzzNewViolation: reading the head of a body never invents an id: every
// id read from a prefix of a well-formed answer is that answer's id.
func FuzzNewViolation(f *testing.F) {
	for _, s := range append(envelopeSeeds, jsonSeeds...) {
		f.Add([]byte(s), uint16(len(s)/2))
	}
	cause := errors.New("cut")
	f.Fuzz(func(t *testing.T, body []byte, cut uint16) {
		head := body[:min(int(cut), len(body))]
		v := NewViolation(head, cause)
		if v == nil {
			return
		}
		if v.Violation == nil || v.ID == nil || !bytes.Equal(v.Raw, head) || !strings.Contains(v.Violation.Error(), "cut") {
			t.Fatalf("violation %+v", v)
		}
		m, err := DecodeMessage(body)
		if err == nil && (m.ID == nil || m.ID.Key() != v.ID.Key()) {
			t.Fatalf("the head %q of %q names id %s", head, body, v.ID)
		}
	})
}

// FuzzScanObject: the scan of any body stays inside it and agrees with
// json.Valid on where a well-formed object ends.
func FuzzScanObject(f *testing.F) {
	for _, s := range append(envelopeSeeds, jsonSeeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		sc := scanObject(body)
		for _, mb := range sc.members {
			if mb.value != nil && !bytes.Contains(body, mb.value) {
				t.Fatalf("member value %q is not from the body", mb.value)
			}
		}
		if sc.status == scanOK && (sc.end > len(body) || sc.end < 2) {
			t.Fatalf("end %d of %d", sc.end, len(body))
		}
		if json.Valid(body) && bytes.HasPrefix(bytes.TrimLeft(body, " \t\r\n"), []byte("{")) {
			if sc.status != scanOK || sc.trailing(body) >= 0 || sc.depth > MaxJSONDepth {
				t.Fatalf("valid object %q scanned as %v, trailing at %d", body, sc.status, sc.trailing(body))
			}
		}
		if sa := scanArray(body); sa.status == scanOK && json.Valid(body) {
			for _, it := range sa.items {
				if !json.Valid(it) {
					t.Fatalf("item %q of a valid array is not JSON", it)
				}
			}
		}
	})
}

// FuzzCheckText: the offset of invalid UTF-8 is the first byte that does
// not decode, everything before it is UTF-8, and clean text gets no warning.
func FuzzCheckText(f *testing.F) {
	for _, s := range []string{"{}", "\uFEFF{}", "{\"a\":\"\xff\"}", "\xed\xa0\x80", "é\xc3"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		err := CheckText(body)
		var w *TextWarning
		if err == nil {
			if !utf8.Valid(body) || bytes.HasPrefix(body, utf8BOM) {
				t.Fatalf("no warning for %q", body)
			}
			return
		}
		if !errors.As(err, &w) || w.BOM != bytes.HasPrefix(body, utf8BOM) {
			t.Fatalf("warning %v for %q", err, body)
		}
		if w.InvalidAt >= 0 {
			if !utf8.Valid(body[:w.InvalidAt]) {
				t.Fatalf("invalid UTF-8 before offset %d in %q", w.InvalidAt, body)
			}
			if r, n := utf8.DecodeRune(body[w.InvalidAt:]); r != utf8.RuneError || n != 1 {
				t.Fatalf("offset %d of %q decodes", w.InvalidAt, body)
			}
		} else if !utf8.Valid(body) {
			t.Fatalf("invalid %q reported clean", body)
		}
	})
}
