package httphead

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/internal/prototest"
)

// hdr, body and delim build the expected annotations of the tests below.
func hdr(off, n int, name, value string) proto.Field {
	return proto.Field{Offset: off, Len: n, Name: name, Value: value, Kind: proto.FieldHeader}
}

func body(off, n int) proto.Field {
	return proto.Field{Offset: off, Len: n, Name: "body", Value: proto.ByteCount(n), Kind: proto.FieldBody}
}

func delim(off, n int, name, value string) proto.Field {
	return proto.Field{Offset: off, Len: n, Name: name, Value: value, Kind: proto.FieldDelimiter}
}

// TestSSEEventFieldsStandard annotates the examples of the standard's
// "Server-sent events" section byte by byte.
func TestSSEEventFieldsStandard(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want []proto.Field
	}{
		{"stock ticker: three data lines", "data: YHOO\ndata: +2\ndata: 10\n\n", []proto.Field{
			hdr(0, 6, "data", "YHOO"), body(6, 4), delim(10, 1, "line end", "LF"),
			hdr(11, 6, "data", "+2"), body(17, 2), delim(19, 1, "line end", "LF"),
			hdr(20, 6, "data", "10"), body(26, 2), delim(28, 1, "line end", "LF"),
			delim(29, 1, "end of event", "LF"),
		}},
		{"comment alone", ": test stream\n\n", []proto.Field{
			hdr(0, 13, "comment", "test stream"), delim(13, 1, "line end", "LF"),
			delim(14, 1, "end of event", "LF"),
		}},
		{"data then id", "data: first event\nid: 1\n\n", []proto.Field{
			hdr(0, 6, "data", "first event"), body(6, 11), delim(17, 1, "line end", "LF"),
			hdr(18, 5, "id", "1"), delim(23, 1, "line end", "LF"),
			delim(24, 1, "end of event", "LF"),
		}},
		{"no space after the colon; id alone resets", "data:second event\nid\n\n", []proto.Field{
			hdr(0, 5, "data", "second event"), body(5, 12), delim(17, 1, "line end", "LF"),
			hdr(18, 2, "id", ""), delim(20, 1, "line end", "LF"),
			delim(21, 1, "end of event", "LF"),
		}},
		{"only one space removed, cut final event", "data:  third event", []proto.Field{
			hdr(0, 6, "data", " third event"), body(6, 12),
		}},
		{"data alone and data with colon", "data\ndata\n\n", []proto.Field{
			hdr(0, 4, "data", ""), delim(4, 1, "line end", "LF"),
			hdr(5, 4, "data", ""), delim(9, 1, "line end", "LF"),
			delim(10, 1, "end of event", "LF"),
		}},
		{"data colon, no value", "data:\n\n", []proto.Field{
			hdr(0, 5, "data", ""), delim(5, 1, "line end", "LF"), delim(6, 1, "end of event", "LF"),
		}},
		{"CR line ends", "event: add\rdata: 73857293\r\r", []proto.Field{
			hdr(0, 10, "event", "add"), delim(10, 1, "line end", "CR"),
			hdr(11, 6, "data", "73857293"), body(17, 8), delim(25, 1, "line end", "CR"),
			delim(26, 1, "end of event", "CR"),
		}},
		{"CR LF line ends, retry and an unknown field", "retry: 1500\r\nfoo: bar\r\n\r\n", []proto.Field{
			hdr(0, 11, "retry", "1500"), delim(11, 2, "line end", "CR LF"),
			hdr(13, 8, "foo", "bar"), delim(21, 2, "line end", "CR LF"),
			delim(23, 2, "end of event", "CR LF"),
		}},
		{"CR then LF of the blank line", "data: a\r\r\n", []proto.Field{
			hdr(0, 6, "data", "a"), body(6, 1), delim(7, 1, "line end", "CR"),
			delim(8, 2, "end of event", "CR LF"),
		}},
		{"leading byte order mark", "\xEF\xBB\xBFdata: a\n\n", []proto.Field{
			hdr(0, 3, "byte order mark", "U+FEFF"),
			hdr(3, 6, "data", "a"), body(9, 1), delim(10, 1, "line end", "LF"),
			delim(11, 1, "end of event", "LF"),
		}},
		{"blank line before any field", "\ndata: a\n\n", []proto.Field{
			delim(0, 1, "blank line", "LF"),
			hdr(1, 6, "data", "a"), body(7, 1), delim(8, 1, "line end", "LF"),
			delim(9, 1, "end of event", "LF"),
		}},
		{"colon in the value kept", "data: a: b\n\n", []proto.Field{
			hdr(0, 6, "data", "a: b"), body(6, 4), delim(10, 1, "line end", "LF"),
			delim(11, 1, "end of event", "LF"),
		}},
		{"empty", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := SSEEventFields([]byte(tc.raw))
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("fields of %q\n got %+v\nwant %+v", tc.raw, got, tc.want)
			}
			prototest.CheckFieldsCover(t, got, len(tc.raw))
		})
	}
}

func TestSSEEventFieldsValueBounded(t *testing.T) {
	long := strings.Repeat("v", 10000)
	raw := "data: " + long + "\n" + long + ": x\n\n"
	fields := SSEEventFields([]byte(raw))
	prototest.CheckFieldsCover(t, fields, len(raw))
	want := strings.Repeat("v", sseValueMax) + "…"
	if fields[0].Value != want || fields[1].Value != "10000 bytes" || fields[1].Len != 10000 {
		t.Fatalf("data fields %+v / %+v", fields[0], fields[1])
	}
	if fields[3].Name != want || fields[3].Value != "x" {
		t.Fatalf("unknown field's name not bounded: %.40q", fields[3].Name)
	}
}

func TestSplitSSELine(t *testing.T) {
	tests := []struct {
		line, name, value string
		comment           bool
	}{
		{"data: x", "data", "x", false},
		{"data:x", "data", "x", false},
		{"data:  x ", "data", " x ", false},
		{"data", "data", "", false},
		{"data:", "data", "", false},
		{": hb", "", "hb", true},
		{":", "", "", true},
		{"a:b:c", "a", "b:c", false},
	}
	for _, tc := range tests {
		name, at, comment := SplitSSELine([]byte(tc.line))
		if string(name) != tc.name || tc.line[at:] != tc.value || comment != tc.comment {
			t.Errorf("SplitSSELine(%q) = %q, %q, %v", tc.line, name, tc.line[at:], comment)
		}
	}
}

// TestSSEEventFieldsAllocations: annotating an event takes one allocation
// for its fields and one for each value shown (a data line's size too),
// none for the standard's field names or the slice's growth.
func TestSSEEventFieldsAllocations(t *testing.T) {
	raw := []byte("event: message\nid: 7\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n\n")
	if n := testing.AllocsPerRun(100, func() { SSEEventFields(raw) }); n > 4 {
		t.Errorf("annotating %q took %.0f allocations, want 4 at most", raw, n)
	}
}
