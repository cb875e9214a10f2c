package jsonrpc

import (
	"bytes"
	"encoding/json"
	"testing"
)

// appendCases are messages whose encoding AppendJSON must write exactly
// as encoding/json writes it, by the direct path or the fallback.
var appendCases = []Message{
	{ID: idp(IntID(7)), Method: "tools/call", Params: json.RawMessage(`{"name":"greet","arguments":{"name":"x"}}`)},
	{ID: idp(IntID(-3)), Method: "ping"},
	{Method: "notifications/initialized"},
	{ID: idp(IntID(1)), Method: "tools/call", Params: json.RawMessage(" {\n \"a\" : [1, 2 ,\"b c\"] }\t")},
	{ID: idp(IntID(2)), Method: "x", Params: json.RawMessage(`{"html":"<b>&</b>"}`)},
	{ID: idp(IntID(2)), Method: "x", Params: json.RawMessage("{\"sep\":\"\u2028\u2029 €\"}")},
	{ID: idp(StringID("a<b")), Method: "x"},
	{ID: idp(ID{}), Result: json.RawMessage(`{}`)},
	{ID: idp(IntID(4)), Result: json.RawMessage(` { "ok" : true } `)},
	{ID: idp(IntID(5)), Error: &Error{Code: -32601, Message: "no <such> method"}},
	{ID: idp(IntID(6)), Method: "m\"e\\t<h>\u00e9"},
	{JSONRPC: "1.0", ID: idp(IntID(8)), Method: "x", Params: json.RawMessage(`[]`)},
}

func idp(id ID) *ID { return &id }

// TestAppendJSONAsEncodingJSON checks AppendJSON against encoding/json on
// messages of every shape, after what dst already held.
func TestAppendJSONAsEncodingJSON(t *testing.T) {
	for i, m := range appendCases {
		if m.JSONRPC == "" {
			m.JSONRPC = Version
		}
		want, err := json.Marshal(&m)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		got, err := m.AppendJSON([]byte("head"))
		if err != nil || !bytes.Equal(got, append([]byte("head"), want...)) {
			t.Errorf("case %d: AppendJSON = %s, %v; want head%s", i, got, err, want)
		}
	}
}

// TestAppendJSONRefusesWhatEncodingJSONRefuses checks that params that
// are not JSON fail as encoding/json fails them, and dst keeps its bytes.
func TestAppendJSONRefusesWhatEncodingJSONRefuses(t *testing.T) {
	m := Message{JSONRPC: Version, ID: idp(IntID(1)), Method: "x", Params: json.RawMessage(`{"a":`)}
	_, want := json.Marshal(&m)
	got, err := m.AppendJSON([]byte("head"))
	if err == nil || want == nil || err.Error() != want.Error() || string(got) != "head" {
		t.Fatalf("AppendJSON = %q, %v; want head and %v", got, err, want)
	}
}

// FuzzAppendJSON checks AppendJSON against encoding/json on params,
// results and methods of any bytes.
func FuzzAppendJSON(f *testing.F) {
	for _, m := range appendCases {
		f.Add(int64(1), m.Method, []byte(m.Params), []byte(m.Result))
	}
	f.Fuzz(func(t *testing.T, id int64, method string, params, result []byte) {
		m := Message{JSONRPC: Version, ID: idp(IntID(id)), Method: method, Params: params, Result: result}
		want, werr := json.Marshal(&m)
		got, err := m.AppendJSON(nil)
		if (err == nil) != (werr == nil) || (err == nil && !bytes.Equal(got, want)) {
			t.Fatalf("AppendJSON = %q, %v; encoding/json = %q, %v", got, err, want, werr)
		}
	})
}

// BenchmarkEncodeRequest encodes a tools/call request as the stdio
// transport does for each call.
func BenchmarkEncodeRequest(b *testing.B) {
	m := Message{JSONRPC: Version, ID: idp(IntID(12345)), Method: "tools/call", Params: json.RawMessage(`{"name":"greet","arguments":{"name":"x"}}`)}
	b.Run("AppendJSON", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := m.AppendJSON(make([]byte, 0, 128)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(&m); err != nil {
				b.Fatal(err)
			}
		}
	})
}
