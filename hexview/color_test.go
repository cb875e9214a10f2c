package hexview

import (
	"math"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpscope/mcpscope/proto"
)

// sgrBefore returns the escape sequence that styles the run starting with needle.
func sgrBefore(t *testing.T, s, needle string) string {
	t.Helper()
	i := strings.Index(s, needle)
	j := strings.LastIndex(s[:max(i, 0)], "\x1b[")
	if i < 0 || j < 0 || !strings.HasSuffix(s[j:i], "m") || strings.Contains(s[j+2:i], "\x1b") {
		t.Fatalf("%q does not start a styled run in %q", needle, s)
	}
	return s[j:i]
}

func TestColoursDifferPerField(t *testing.T) {
	for _, dark := range []bool{true, false} {
		st := DefaultStyles(dark)
		control := controlDump(t).Render(0, 1, 16, st)
		if sgrBefore(t, control, "00 00 00 e3") == sgrBefore(t, control, "7b 22 6a 73") {
			t.Errorf("dark=%v: length prefix and body share a colour: %q", dark, control)
		}
		exec := execDump(t).Render(0, 1, 16, st)
		head, tag, body := sgrBefore(t, exec, "00 00 00 2a"), sgrBefore(t, exec, "00 00 00 01"), sgrBefore(t, exec, "6c 69 6e 65")
		if head == tag || tag == body || head == body {
			t.Errorf("dark=%v: request id %q, stream tag %q, payload %q", dark, head, tag, body)
		}
		// The header's colour shows in the gutter too, laid under the non-printable style.
		gutter := sgrBefore(t, exec[strings.Index(exec, "|"):], "...")
		if colour := head[strings.Index(head, "38;2;"):]; !strings.HasSuffix(gutter, colour) || gutter == head {
			t.Errorf("dark=%v: gutter of the request id %q is not its colour %q made faint", dark, gutter, head)
		}
		line := ndjsonDump(t).Render(3, 1, 16, st)
		if sgrBefore(t, line, "69 7a 65") == sgrBefore(t, line, "0a") {
			t.Errorf("dark=%v: body and LF delimiter share a colour: %q", dark, line)
		}
	}
}

func TestHeaderFieldKeepsColourAcrossRows(t *testing.T) {
	rows := strings.Split(gatewayDump(t).Render(0, 3, 8, DefaultStyles(true)), "\n")
	guid1, guid2, index := sgrBefore(t, rows[0], "00 84 0e"), sgrBefore(t, rows[1], "a7 16 44"), sgrBefore(t, rows[2], "03 00 00")
	if guid1 != guid2 {
		t.Errorf("the GUID changes colour across rows: %q then %q", guid1, guid2)
	}
	if guid1 == index {
		t.Errorf("GUID and index share a colour %q", guid1)
	}
}

func TestPaletteCycles(t *testing.T) {
	st := DefaultStyles(true)
	var fields []proto.Field
	for i := range len(st.Header) + 1 {
		fields = append(fields, proto.Field{Offset: i * 8, Len: 8, Name: "h", Kind: proto.FieldHeader})
	}
	data := []byte(strings.Repeat("\x01", 8) + strings.Repeat("\x02", 8*(len(st.Header)-1)) + strings.Repeat("\x03", 8))
	out := Dump{Data: data, Fields: fields, Size: len(data)}.Render(0, 100, 8, st)
	if sgrBefore(t, out, "01 01") != sgrBefore(t, out, "03 03") {
		t.Errorf("header field %d does not reuse the first colour", len(st.Header))
	}
	if sgrBefore(t, out, "01 01") == sgrBefore(t, out, "02 02") {
		t.Errorf("the second header field reuses the first colour")
	}
}

func TestFieldsOutOfRangeAndOverlapping(t *testing.T) {
	fields := []proto.Field{
		{Offset: 2, Len: math.MaxInt, Name: "body", Kind: proto.FieldBody},
		{Offset: -10, Len: 12, Name: "before", Kind: proto.FieldHeader}, // covers bytes 0 and 1
		{Offset: 5, Len: 2, Name: "inner", Kind: proto.FieldHeader},     // over the body: wins
		{Offset: 6, Len: 1, Name: "late", Kind: proto.FieldHeader},      // loses to the first header
		{Offset: 9, Len: 1, Name: "end", Kind: proto.FieldDelimiter},
		{Offset: 3, Len: -4, Name: "negative", Kind: proto.FieldHeader},
		{Offset: 1 << 40, Len: 5, Name: "far", Kind: 9},
	}
	d := Dump{Data: []byte("0123456789"), Fields: fields, Size: 4}
	want := map[int]string{-1: "before", 0: "before", 2: "body", 5: "inner", 6: "inner", 9: "end", 10: "body", 1<<40 + 1: "body"}
	for off, name := range want {
		if f, ok := d.FieldAt(off); !ok || f.Name != name {
			t.Errorf("FieldAt(%d) = %q, %v; want %q", off, f.Name, ok, name)
		}
	}
	if f, ok := d.FieldAt(-11); ok {
		t.Errorf("FieldAt(-11) = %q, want none", f.Name)
	}
	out := d.Render(0, 5, 8, DefaultStyles(true))
	if lineCount(out) != 2 || strings.Contains(ansi.Strip(out), "not held") {
		t.Fatalf("Size below len(Data) must not add a not-held line: %q", ansi.Strip(out))
	}
	if sgrBefore(t, out, "35 36") == sgrBefore(t, out, "32 33") {
		t.Errorf("a header inside the body is not coloured as a header: %q", out)
	}
	legend := ansi.Strip(d.Legend(DefaultStyles(true), 0))
	if legend != "■ body  ■ before  ■ inner  ■ late  ■ end  ■ negative  ■ far" {
		t.Errorf("legend %q", legend)
	}
	odd := Dump{Fields: []proto.Field{{Name: "", Value: "a\nb", Kind: proto.FieldDelimiter}}}
	if got := ansi.Strip(odd.Legend(Styles{}, 3)); got != "■ …" {
		t.Errorf("cut legend %q", got)
	}
	if got := ansi.Strip(odd.Legend(Styles{}, 40)); got != "■ delimiter = a b" {
		t.Errorf("legend of a nameless field %q", got)
	}
}
