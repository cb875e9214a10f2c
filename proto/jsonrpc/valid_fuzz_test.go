package jsonrpc

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// validSeeds are JSON texts, good and broken, where two validators could
// part: escapes, surrogates, bytes that are not UTF-8, control bytes,
// numbers at their edges, trailing data and white space.
var validSeeds = []string{
	`{}`, `[]`, `""`, `0`, `-0.0e+1`, `1.`, `01`, `-`, `1e`, `.5`, `tru`, `nul`, ` true `, `[1,]`, `{"a":1,}`,
	`{"a" : [ null , false ] }`, `"\u00e9\ud83d\ude00"`, `"\ud800"`, `"\u12"`, `"\x"`, "\"\xff\xfe\"", "\"a\x01\"",
	"\"\x7f\"", `"\/\b\f\n\r\t"`, `{"a":1}{}`, `[` + strings.Repeat(`"0123456789abcdef",`, 40) + `0]`, "\t\r\n[]\n",
}

// FuzzValidJSON: validJSON answers as encoding/json's Valid does, for any
// depth it is told of that is no less than the text's.
func FuzzValidJSON(f *testing.F) {
	for _, s := range append(validSeeds, jsonSeeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		depth := bytes.Count(b, []byte("[")) + bytes.Count(b, []byte("{")) // no nesting is deeper
		if got, want := validJSON(b, depth), json.Valid(b); got != want {
			t.Fatalf("validJSON(%q) = %v, encoding/json says %v", b, got, want)
		}
	})
}

// TestValidJSONDeep: a text nested past MaxJSONDepth is refused without
// recursing into it, as encoding/json refuses it.
func TestValidJSONDeep(t *testing.T) {
	deep := []byte(strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20))
	if validJSON(deep, 1<<20) {
		t.Fatal("a text nested a million deep is valid")
	}
	if !validJSON([]byte(strings.Repeat("[", MaxJSONDepth)+strings.Repeat("]", MaxJSONDepth)), MaxJSONDepth) {
		t.Fatal("a text nested MaxJSONDepth deep is not valid")
	}
}
