package lint

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// deepSchema is a tool whose input schema nests n levels deep.
func deepSchema(n int) string {
	return `{"name":"deep","inputSchema":{"type":"object","properties":{"x":` +
		strings.Repeat(`{"items":`, n) + `{}` + strings.Repeat(`}`, n) + `}}}`
}

// offerOf puts one server-sent entry in every listing of a 2026-07-28
// HTTP offer, so every rule reads it.
func offerOf(entry []byte) Offer {
	raw := []json.RawMessage{entry, entry}
	return Offer{ProtocolVersion: "2026-07-28", Transport: "http", Tools: raw, Prompts: raw, Resources: raw, ResourceTemplates: raw}
}

// FuzzCheck feeds arbitrary bytes to Check as a listing entry of every
// kind: it must not panic, and every finding must be printable as is.
func FuzzCheck(f *testing.F) {
	for _, tc := range ruleCases {
		for _, o := range []Offer{tc.bad, tc.good} {
			for _, list := range [][]json.RawMessage{o.Tools, o.Prompts, o.Resources, o.ResourceTemplates} {
				for _, e := range list {
					f.Add([]byte(e))
				}
			}
		}
	}
	f.Add([]byte(deepSchema(200)))
	f.Add([]byte(`{"name":"a","uriTemplate":"{","arguments":[null,{"name":1}],"annotations":[],"inputSchema":{"type":["object",1],"$ref":"x:y","required":"a"}}`))
	f.Fuzz(func(t *testing.T, entry []byte) {
		for _, fd := range Check(offerOf(entry)) {
			for _, s := range []string{fd.Rule, fd.Subject, fd.Path, fd.Message, fd.Fix} {
				if !termtext.Safe(s) {
					t.Fatalf("%s carries unsafe text %q", fd.Rule, s)
				}
			}
		}
	})
}

// TestDeepNestingIsBounded: a schema nested 10,000 deep (encoding/json's
// own limit) is read to depth 64 and reported, not walked to the bottom;
// one deeper still is an entry that cannot be read. Neither crashes.
func TestDeepNestingIsBounded(t *testing.T) {
	fs := Check(Offer{Tools: raws(deepSchema(9990))})
	if len(findingsOf(fs, "schema-too-deep")) != 1 {
		t.Errorf("9,990 deep: %+v", fs)
	}
	fs = Check(Offer{Tools: raws(deepSchema(20000))})
	if m := findingsOf(fs, "listing-malformed"); len(m) != 1 || !strings.Contains(m[0].Message, "depth") {
		t.Errorf("20,000 deep: %+v", fs)
	}
}

// BenchmarkCheck1000Tools checks a listing of 1,000 distinct, described
// tools with a few parameters each: the near-duplicate comparison and
// the schema compilation dominate.
func BenchmarkCheck1000Tools(b *testing.B) {
	var tools []json.RawMessage
	for i := range 1000 {
		tools = append(tools, json.RawMessage(strings.NewReplacer("N", strings.Repeat("x", i%7)+string(rune('a'+i%26)), "I", strconv.Itoa(i)).Replace(
			`{"name":"tool_I","description":"Fetch record I of kind N from the store, with paging and a filter on field N.",`+
				`"inputSchema":{"type":"object","properties":{"id_I":{"type":"string","description":"the id"},"limit":{"type":"integer","default":10},"tags":{"type":"array","items":{"type":"string"}}},"required":["id_I"]}}`)))
	}
	o := Offer{ProtocolVersion: "2026-07-28", Transport: "http", Tools: tools}
	b.ReportAllocs()
	for b.Loop() {
		Check(o)
	}
}

// TestNearDuplicatesOncePerTool: a listing of many copies of one tool
// yields one near-duplicate finding per copy, not one per pair.
func TestNearDuplicatesOncePerTool(t *testing.T) {
	var copies []json.RawMessage
	for i := range 2000 {
		copies = append(copies, json.RawMessage(`{"name":"copy_`+strconv.Itoa(i)+`","description":"Find the orders of one customer by customer id, newest first.","inputSchema":`+okSchema+`}`))
	}
	if n := len(findingsOf(Check(Offer{Tools: copies}), "tool-near-duplicate")); n != 1999 {
		t.Errorf("%d near-duplicate findings for 2,000 copies, want 1,999", n)
	}
}
