package look

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// run is one run of scanJSON's output.
type run struct {
	class jsonClass
	text  string
}

func scanRuns(text string) []run {
	var out []run
	scanJSON(text, func(c jsonClass, s string) { out = append(out, run{c, s}) })
	return out
}

// Member names, strings, numbers, literals and punctuation are told apart
// as JSON's grammar has them; a string is a name only before a colon.
func TestScanJSONClasses(t *testing.T) {
	text := "{\n  \"a\\\"b\": [-1.5e+3, true, null],\n  \"k\" : \"v:\",\n  \"x\": {}\n}"
	got := scanRuns(text)
	var b strings.Builder
	for _, r := range got {
		b.WriteString(r.text)
	}
	if b.String() != text {
		t.Fatalf("runs joined = %q, want the text", b.String())
	}
	class := map[string]jsonClass{}
	for _, r := range got {
		class[r.text] = r.class
	}
	for text, c := range map[string]jsonClass{
		`"a\"b"`: jsonName, `"k"`: jsonName, `"x"`: jsonName, `"v:"`: jsonString,
		"-1.5e+3": jsonNumber, "true": jsonLiteral, "null": jsonLiteral,
		"{": jsonPunct, "}": jsonPunct, ":": jsonPunct,
	} {
		if got, ok := class[text]; !ok || got != c {
			t.Errorf("%s: class %d (found %v), want %d", text, got, ok, c)
		}
	}
}

// Colouring changes nothing but the colour: with the sequences taken out
// the text is the input; names and strings get different colours; text
// that is not JSON and an unclosed string come back plain; text over the
// limit is not coloured.
func TestHighlightJSON(t *testing.T) {
	st := NewStyles(true)
	for _, text := range []string{
		"{\n  \"name\": \"echo\",\n  \"n\": [1, 2.5, -3e-2, true, false, null]\n}",
		"not json at all ☃",
		"{\"open\": \"never closed\n}",
		"",
	} {
		out := HighlightJSON(text, &st)
		if got := ansi.Strip(out); got != strings.TrimRight(text, "\n") {
			t.Errorf("%q: stripped = %q", text, got)
		}
	}
	out := HighlightJSON(`{"k": "v"}`, &st)
	if !strings.Contains(out, st.json[jsonName].pre+`"k"`) || !strings.Contains(out, st.json[jsonString].pre+`"v"`) || st.json[jsonName] == st.json[jsonString] {
		t.Errorf("name and string not coloured apart: %q", out)
	}
	if out := HighlightJSON("words only", &st); out != "words only" {
		t.Errorf("plain text gained sequences: %q", out)
	}
	big := "[" + strings.Repeat("1,", maxHighlight/2) + "1]"
	if out := HighlightJSON(big, &st); out != big {
		t.Error("text over maxHighlight was coloured")
	}
}

// FuzzScanJSON: any text splits into runs that join back into it, none
// empty and no two neighbours of one class.
func FuzzScanJSON(f *testing.F) {
	for _, s := range []string{`{"a": [1, "b", null]}`, `"\`, "-", "tru", "\"\\\"\n:", "{\"\xff\": 1e}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var b strings.Builder
		prev := jsonClass(255)
		scanJSON(text, func(c jsonClass, s string) {
			if s == "" || c == prev {
				t.Fatalf("%q: run %q of class %d after class %d", text, s, c, prev)
			}
			prev = c
			b.WriteString(s)
		})
		if b.String() != text {
			t.Fatalf("%q: runs joined = %q", text, b.String())
		}
	})
}
