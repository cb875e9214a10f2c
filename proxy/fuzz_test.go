package proxy

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// FuzzParseFaults: a faults file (or the TUI's faults text) never panics
// the parser, and what it takes is valid rules.
func FuzzParseFaults(f *testing.F) {
	f.Add([]byte(faultsYAML))
	f.Add([]byte(`{"faults":[{"match":{"method":"tools/*"},"drop":true}]}`))
	f.Add([]byte("- cut: true\n  after: 3\n"))
	f.Add([]byte("faults:\n  - error: {code: 1, data: [1, {a: b}, 2026-01-01, !!binary aGk=]}\n"))
	f.Add([]byte("faults:\n  - &a {drop: true}\n  - *a\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		rules, err := ParseFaults(b)
		if err != nil {
			return
		}
		if err := checkFaults(rules); err != nil {
			t.Fatalf("ParseFaults took a rule Check refuses: %v", err)
		}
		for _, r := range rules {
			_ = r.String()
		}
		out, err := MarshalFaults(rules)
		if err != nil {
			t.Fatalf("MarshalFaults: %v", err)
		}
		back, err := ParseFaults(out)
		if err != nil || !reflect.DeepEqual(back, rules) {
			t.Fatalf("%q read back as %+v, %v; want %+v", out, back, err, rules)
		}
	})
}

// FuzzParseFilter: a filter typed by a viewer never panics, and one taken
// renders to a filter that reads back the same.
func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{"tools/call", "method=tools/* tool=echo dir=host", "dir=in", "tool=[", "x=y", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		flt, err := ParseFilter(s)
		if err != nil {
			return
		}
		_ = flt.Match(capture.Out, "tools/call", "echo")
		_ = flt.Match(capture.In, "", "")
		if strings.IndexFunc(flt.Method+flt.Tool+flt.Dir, unicode.IsSpace) >= 0 {
			return // cannot be: ParseFilter splits at white space
		}
		if again, err := ParseFilter(flt.String()); err != nil || again != flt {
			t.Fatalf("%q → %+v → %q → %+v, %v", s, flt, flt.String(), again, err)
		}
	})
}

// FuzzRelay: whatever a host or a server sends, Relay never panics, and
// either carries it on unchanged (one Pass of the very Hop) or says with
// a mark what it did instead.
func FuzzRelay(f *testing.F) {
	f.Add([]byte(callTool(1, "echo")), false, false)
	f.Add([]byte(callTool(2, "boom")), false, false)
	f.Add([]byte(callTool(3, "bad")), true, false)
	f.Add([]byte(result(1)), true, false)
	f.Add([]byte(`{"jsonrpc":"2.0","method":"notifications/progress"}`), true, false)
	f.Add([]byte("[1,2"), false, false)
	f.Add([]byte("\xa3gjsonrpcc2.0bid\x01fmethodjtools/list"), false, true)
	f.Fuzz(func(t *testing.T, body []byte, in, cbor bool) {
		// The fuzzer's slice may have a large spare capacity, which a
		// held frame keeps alive and the store counts: a relay's own
		// buffers are sized to what they read.
		body = bytes.Clone(body)
		s, err := Open(Options{Name: "fuzz", NoRecord: true, Log: func(string, ...any) {}, Faults: []Fault{
			{Match: Filter{Tool: "boom"}, Action: FaultError, Error: &jsonrpc.Error{Code: -1, Message: "boom"}},
			{Match: Filter{Tool: "bad"}, Action: FaultCorrupt},
			{Match: Filter{Method: "notifications/*"}, Action: FaultDuplicate},
		}})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close(nil)
		h := Hop{Dir: capture.Out, Chan: capture.Channel{Kind: capture.Control}, Raw: body, Body: body, Enc: proto.EncJSON}
		if in {
			h.Dir = capture.In
		}
		if cbor {
			h.Enc = proto.EncCBOR
		}
		c := &fakeCarrier{}
		if err := s.Relay(context.Background(), h, c); err != nil {
			t.Fatalf("Relay: %v", err)
		}
		got := c.took()
		passed := len(got) == 1 && got[0].call == "pass" && bytes.Equal(got[0].hop.Raw, body) && got[0].hop.Dir == h.Dir
		if !passed && len(marks(s)) == 0 {
			t.Fatalf("carried %+v with no mark", got)
		}
		if fs := frames(s); len(fs) == 0 || !bytes.Equal(fs[0].Raw, body) {
			t.Fatalf("not captured as it came: %+v", fs)
		}
	})
}
