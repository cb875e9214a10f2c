package jsonrpc

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestObjectMembers: the members of an object come back in order, values
// as written; an object cut short gives its complete members, not ok.
func TestObjectMembers(t *testing.T) {
	ms, ok := ObjectMembers([]byte(` {"data": {"a":"}\""}, "le\u0076el" : "info"} `))
	if !ok || len(ms) != 2 || ms[0].Key != "data" || string(ms[0].Value) != `{"a":"}\""}` || ms[1].Key != "level" || string(ms[1].Value) != `"info"` {
		t.Fatalf("ObjectMembers = %q, %v", ms, ok)
	}
	for _, cut := range []string{`{"level":"info","data":"x`, `{"level":"info"} x`, `[1]`, ``} {
		if ms, ok := ObjectMembers([]byte(cut)); ok || len(ms) > 1 {
			t.Errorf("ObjectMembers(%q) = %q, %v", cut, ms, ok)
		}
	}
}

// TestArrayItems: items come back as written until each says stop; an
// array cut short or followed by more is not ok.
func TestArrayItems(t *testing.T) {
	var got []string
	ok := ArrayItems([]byte(` ["a,]", {"b":[1]} , 3 ]`), func(item []byte) bool {
		got = append(got, string(item))
		return true
	})
	if !ok || len(got) != 3 || got[0] != `"a,]"` || got[1] != `{"b":[1]}` || got[2] != "3" {
		t.Fatalf("ArrayItems = %q, %v", got, ok)
	}
	n := 0
	if !ArrayItems([]byte(`[1,2,3]`), func([]byte) bool { n++; return n < 2 }) || n != 2 {
		t.Errorf("stopped after %d items", n)
	}
	for _, bad := range []string{`[1,`, `[1] 2`, `{}`, `[1 2]`, ``} {
		if ArrayItems([]byte(bad), func([]byte) bool { return true }) {
			t.Errorf("ArrayItems(%q) ok", bad)
		}
	}
	if !ArrayItems([]byte(`[ ]`), func([]byte) bool { t.Error("an item of []"); return true }) {
		t.Error("[ ] not ok")
	}
}

// FuzzArrayItems: on any bytes ArrayItems never panics, every item it
// hands over lies in the body, and the items of a valid array are valid
// JSON.
func FuzzArrayItems(f *testing.F) {
	for _, s := range []string{`["a",1,{"b":[]}]`, `[`, `["\"",`, `[1] x`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		valid := json.Valid(body)
		ok := ArrayItems(body, func(item []byte) bool {
			if !bytes.Contains(body, item) || (valid && !json.Valid(item)) {
				t.Fatalf("item %q of %q", item, body)
			}
			return true
		})
		if valid && bytes.HasPrefix(bytes.TrimLeft(body, " \t\r\n"), []byte("[")) && !ok {
			t.Fatalf("valid array %q not ok", body)
		}
	})
}
