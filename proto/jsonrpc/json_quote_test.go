package jsonrpc

import (
	"encoding/json"
	"testing"
)

func TestQuoteJSONKeepsHTMLCharacters(t *testing.T) {
	for _, s := range []string{"a<b>&c", "line\nbreak \"quoted\" \\", "ünïcödé ✓", "\x00\x1f", "bad \xff utf8"} {
		q := QuoteJSON(s)
		var back string
		if err := json.Unmarshal(q, &back); err != nil {
			t.Fatalf("QuoteJSON(%q) = %s: not JSON: %v", s, q, err)
		}
		want, _ := json.Marshal(s) // encoding/json: HTML escaped, invalid UTF-8 replaced
		var wantBack string
		_ = json.Unmarshal(want, &wantBack)
		if back != wantBack {
			t.Errorf("QuoteJSON(%q) decodes to %q, want %q", s, back, wantBack)
		}
	}
	if got := string(QuoteJSON("<&>")); got != `"<&>"` {
		t.Errorf("QuoteJSON escaped HTML: %s", got)
	}
}

func TestEncodeObjectKeepsOrder(t *testing.T) {
	got := EncodeObject([]Member{{Key: "z", Value: json.RawMessage(`1`)}, {Key: "a<b", Value: json.RawMessage(`{"x":[true]}`)}})
	if string(got) != `{"z":1,"a<b":{"x":[true]}}` {
		t.Errorf("EncodeObject = %s", got)
	}
	if string(EncodeObject(nil)) != `{}` {
		t.Errorf("EncodeObject(nil) = %s", EncodeObject(nil))
	}
}
