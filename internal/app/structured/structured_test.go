package structured

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// result builds a tools/call result with one text item and sc.
func result(text string, sc string) json.RawMessage {
	t, _ := json.Marshal(text)
	return json.RawMessage(`{"content":[{"type":"text","text":` + string(t) + `}],"structuredContent":` + sc + `}`)
}

// schema is the outputSchema of the TypeScript everything server's
// get-structured-content.
const schema = `{"type":"object","properties":{"temperature":{"type":"number"},"conditions":{"type":"string"},
	"humidity":{"type":"number"}},"required":["temperature","conditions","humidity"]}`

func TestReportSameAndValid(t *testing.T) {
	sc := `{"temperature":33,"conditions":"Cloudy","humidity":82}`
	got := Text(Report(result(`{"humidity":82.0,"temperature":33,"conditions":"Cloudy"}`, sc), json.RawMessage(schema)))
	want := "content[0] text is the same JSON as structuredContent\nvalid against outputSchema\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// structuredContent must be an object: an array, a number or null is
// said to be none, not compared.
func TestReportNotAnObject(t *testing.T) {
	for sc, want := range map[string]string{`[1,2]`: "an array", `null`: "null", `7`: "a number"} {
		got := Text(Report(result(sc, sc), json.RawMessage(schema)))
		if got != "structuredContent must be an object (got "+want+")\n" {
			t.Errorf("%s: %q", sc, got)
		}
	}
	if got := Report(json.RawMessage(`{"content":[]}`), nil); got != nil {
		t.Errorf("absent: %v", got)
	}
}

// A text that is a JSON scalar is compared too: a type mismatch, not "no
// text content is JSON".
func TestReportScalarText(t *testing.T) {
	got := Text(Report(result(`42`, `{"a":1}`), nil))
	if !strings.Contains(got, "content[0] text differs from structuredContent at 1 path") {
		t.Errorf("%q", got)
	}
}

// A member named "0" is a member ($.0) in the path of a schema failure, an
// element of an array an element.
func TestCheckPathMemberThatReadsAsIndex(t *testing.T) {
	got := Text(Check(json.RawMessage(`{"0":"x","a":[1,"y"]}`),
		json.RawMessage(`{"type":"object","properties":{"0":{"type":"number"},"a":{"type":"array","items":{"type":"number"}}}}`)))
	for _, want := range []string{"  $.0: must be a number", "  $.a[1]: must be a number"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in %q", want, got)
		}
	}
}

func TestReportDiffersAndFails(t *testing.T) {
	sc := `{"temperature":"hot","conditions":"Cloudy","extra":[1,2]}`
	got := Text(Report(result(`{"temperature":33,"conditions":"Rain","extra":[1]}`, sc), json.RawMessage(schema)))
	for _, want := range []string{
		"content[0] text differs from structuredContent at 3 paths",
		`$.conditions: "Cloudy" → "Rain"`,
		`$.extra[1]: 2 → (none)`,
		`$.temperature: "hot" → 33`,
		"fails outputSchema with 2 errors:",
		"$: missing required property \"humidity\"",
		"$.temperature: must be a number",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
}

func TestReportNothingToCompare(t *testing.T) {
	if got := Report(json.RawMessage(`{"content":[]}`), nil); got != nil {
		t.Errorf("no structuredContent: %v", got)
	}
	if got := Text(Report(result("Sunny, 33 degrees", `{"t":33}`), nil)); !strings.Contains(got, "no text content is JSON") {
		t.Errorf("prose text: %q", got)
	}
	if got := Report(json.RawMessage(`{"content":[{"type":"image","data":"AA=="}],"structuredContent":{"t":1}}`), nil); len(got) != 0 {
		t.Errorf("no text at all: %v", got)
	}
}

// Text that differs at 10,000 paths lists MaxShown of them and counts the
// rest; 10,000 schema failures likewise.
func TestReportBoundsManyDifferences(t *testing.T) {
	var a, b strings.Builder
	a.WriteString(`{"v":[`)
	b.WriteString(`{"v":[`)
	for i := range 10000 {
		if i > 0 {
			a.WriteString(",")
			b.WriteString(",")
		}
		fmt.Fprintf(&a, "%d", i)
		fmt.Fprintf(&b, `"%d"`, i)
	}
	a.WriteString("]}")
	b.WriteString("]}")
	lines := Report(result(b.String(), a.String()), json.RawMessage(`{"type":"object","properties":{"v":{"type":"array","items":{"type":"string"}}}}`))
	text := Text(lines)
	if !strings.Contains(text, "differs from structuredContent at 10000 paths") || !strings.Contains(text, fmt.Sprintf("… and %d more", 10000-MaxShown)) {
		t.Errorf("head of the report:\n%s", text[:min(len(text), 2000)])
	}
	if !strings.Contains(text, "fails outputSchema with 10000 errors") {
		t.Errorf("schema part:\n%s", text[len(text)-min(len(text), 600):])
	}
	if len(lines) > 2*MaxShown+6 || len(text) > 16<<10 {
		t.Errorf("%d lines, %d bytes", len(lines), len(text))
	}
}

// structuredContent 10,000 deep or of 5 MiB is reported on, quickly and
// without a panic.
func TestReportHostileSizes(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000)
	deepest := `{"a":` + strings.Repeat(`[`, 8999) + "1" + strings.Repeat("]", 8999) + "}"

	big := `{"s":"` + strings.Repeat("x", 5<<20) + `"}`
	for name, sc := range map[string]string{"deep": deep, "deepest readable": deepest, "big": big} {
		start := time.Now()
		text := Text(Report(result(sc, sc), json.RawMessage(`{"type":"object"}`)))
		if text == "" || len(text) > 4<<10 {
			t.Errorf("%s: %q", name, text[:min(len(text), 400)])
		}
		t.Logf("%s: %v: %s", name, time.Since(start), strings.ReplaceAll(text, "\n", " | "))
	}
}

// Server text in a difference (keys, values) is escaped.
func TestReportEscapesServerText(t *testing.T) {
	sc := `{"\u001b[2Jkey":"\u001b]0;pwned\u0007"}`
	text := Text(Report(result(`{"\u001b[2Jkey":"other\u202e"}`, sc), nil))
	if strings.ContainsAny(text, "\x1b\x07\u202e") {
		t.Errorf("raw control in %q", text)
	}
}

// FuzzReport: any tools/call result and outputSchema give a bounded
// report without a panic.
func FuzzReport(f *testing.F) {
	f.Add([]byte(result(`{"a":1}`, `{"a":2}`)), []byte(schema))
	f.Add([]byte(`{"content":[{"type":"text","text":"[1,2"}],"structuredContent":[1,2]}`), []byte(`{"type":"array"}`))
	f.Fuzz(func(t *testing.T, res, schema []byte) {
		lines := Report(res, schema)
		if len(lines) > 4*MaxShown+4*maxTextItems+8 {
			t.Fatalf("%d lines", len(lines))
		}
	})
}
