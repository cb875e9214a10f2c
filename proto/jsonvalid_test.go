package proto

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// validJSONCases are texts on the edges of JSON's grammar.
var validJSONCases = []string{
	``, ` `, `{}`, `[]`, `{ }`, `[ ]`, `{"a":1}`, `{"a":1,}`, `{,"a":1}`, `{"a" 1}`, `{"a":}`, `{"a"}`, `{1:2}`,
	`[1,2]`, `[1,]`, `[,1]`, `[1 2]`, `[[[]]]`, `[[[]]`, `[]]`, `{"a":[{"b":{}}]}`, `{"a":[}`, `[{]`,
	`0`, `-0`, `-`, `01`, `1.`, `1.5`, `.5`, `1e5`, `1E+5`, `1e-5`, `1e`, `1e+`, `-1.5e10`, `2.`, `1.e5`, `--1`, `+1`,
	`true`, `false`, `null`, `tru`, `nul`, `truex`, `True`, ` true `, `true false`, `"a" "b"`,
	`"abc"`, `"a\"b"`, `"a\\"`, `"a\\\"`, `"\u00e9"`, `"\u00G9"`, `"\u12"`, `"\x"`, `"\/"`, `"\b\f\n\r\t"`,
	"\"a\tb\"", "\"a\nb\"", "\"a\x1fb\"", "\"a\x7fb\"", "\"\xff\xfe\"", "\"é\"", `"unterminated`, `"`,
	"\"" + strings.Repeat("0123456789abcdef", 9) + "\"", "\"" + strings.Repeat("x", 40) + "\\\"" + strings.Repeat("y", 13) + "\"",
	"\"" + strings.Repeat("x", 23) + "\x01" + strings.Repeat("y", 13) + "\"", "\"" + strings.Repeat("\xa2", 17) + "\"",
	strings.Repeat("[", MaxJSONDepth) + strings.Repeat("]", MaxJSONDepth),
	strings.Repeat("[", MaxJSONDepth-1) + "[ ]" + strings.Repeat("]", MaxJSONDepth-1),
	strings.Repeat("[", MaxJSONDepth) + "[ ]" + strings.Repeat("]", MaxJSONDepth),
	strings.Repeat("[", MaxJSONDepth+1) + strings.Repeat("]", MaxJSONDepth+1),
	strings.Repeat(`{"a":`, MaxJSONDepth) + "1" + strings.Repeat("}", MaxJSONDepth),
	strings.Repeat(`{"a":`, MaxJSONDepth+1) + "1" + strings.Repeat("}", MaxJSONDepth+1),
	"\t\r\n {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"x\":[1,2.5,-3e2,true,false,null,\"s\"]}}\n",
}

// TestValidJSONAsEncodingJSON: validJSON says what encoding/json.Valid
// says, on the edges of the grammar and on every prefix of each case.
func TestValidJSONAsEncodingJSON(t *testing.T) {
	for _, c := range validJSONCases {
		for n := range len(c) + 1 {
			if len(c) > 1000 && n < len(c) {
				continue // the deep ones whole only
			}
			if got, want := validJSON([]byte(c[:n])), json.Valid([]byte(c[:n])); got != want {
				t.Fatalf("validJSON(%.80q) = %v, encoding/json says %v", c[:n], got, want)
			}
		}
	}
}

// FuzzValidJSON: validJSON agrees with encoding/json.Valid on any input.
func FuzzValidJSON(f *testing.F) {
	for _, c := range validJSONCases {
		if len(c) < 1000 {
			f.Add(c)
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		if got, want := validJSON([]byte(in)), json.Valid([]byte(in)); got != want {
			t.Fatalf("validJSON(%q) = %v, encoding/json says %v", in, got, want)
		}
	})
}

// BenchmarkValidJSON checks a 64 KiB message (a log line in a string, as
// a notification carries it) with validJSON and with encoding/json.Valid,
// in turn; "x-json-valid" is how many times faster validJSON is.
func BenchmarkValidJSON(b *testing.B) {
	msg := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` +
		strings.Repeat("0123456789abcdef", 4096) + `","n":[1,2.5,-3e2,true,null]}}`)
	b.SetBytes(int64(len(msg)))
	var ours, theirs time.Duration
	for b.Loop() {
		start := time.Now()
		if !validJSON(msg) {
			b.Fatal("validJSON refused a valid message")
		}
		mid := time.Now()
		if !json.Valid(msg) {
			b.Fatal("json.Valid refused a valid message")
		}
		ours, theirs = ours+mid.Sub(start), theirs+time.Since(mid)
	}
	b.ReportMetric(theirs.Seconds()/ours.Seconds(), "x-json-valid")
}
