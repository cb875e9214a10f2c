package jsonindent

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// deep returns a JSON value nested depth arrays deep around an object with
// a string of pad bytes: [[[…{"k":"xxx"}…]]].
func deep(depth, pad int) []byte {
	var b bytes.Buffer
	b.WriteString(strings.Repeat("[", depth))
	b.WriteString(`{"k":"` + strings.Repeat("x", pad) + `"}`)
	b.WriteString(strings.Repeat("]", depth))
	return b.Bytes()
}

// Up to the depth limit the output is encoding/json's.
func TestIndentMatchesEncodingJSON(t *testing.T) {
	for _, src := range []string{
		`{"a":[1,{"b":"<x>"}],"c":{},"d":[],"e":null}`,
		`  [ true , false, -1.5e3, "a\"b\\", {"x" : { "y" : [ [ ] , { } ] } } ]  `,
		`"just a string"`,
		`42`,
		string(deep(DefaultMaxDepth-1, 3)),
	} {
		got, err := Indent([]byte(src), 0)
		if err != nil {
			t.Fatalf("Indent(%s): %v", src, err)
		}
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(strings.TrimSpace(src)), "", "  "); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("Indent(%s) =\n%s\nwant\n%s", src, got, want.Bytes())
		}
	}
}

// Past the limit values are written compactly, and the output is still the
// same JSON.
func TestIndentCapsDepth(t *testing.T) {
	got, err := Indent([]byte(`{"a":{"b":{"c":[1, 2,{"d" : 3}]}}}`), 2)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"a\": {\n    \"b\": {\"c\":[1,2,{\"d\":3}]}\n  }\n}"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A 20 KB value nested 10,000 deep stays about 20 KB (encoding/json makes
// it about 200 MB).
func TestIndentDeepValueStaysProportional(t *testing.T) {
	src := deep(9_990, 20<<10-2*9_990)
	got, err := Indent(src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if limit := 2 * len(src); len(got) > limit {
		t.Fatalf("%d bytes of JSON nested 9,990 deep became %d bytes, over %d", len(src), len(got), limit)
	}
	var a, b bytes.Buffer
	_ = json.Compact(&a, src)
	_ = json.Compact(&b, got)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("the indented value is not the same JSON")
	}
}

func TestIndentRejectsInvalidJSON(t *testing.T) {
	for _, src := range []string{``, `{"a":`, `[1,]`, `1 2`, `{"a":1}x`} {
		if _, err := Indent([]byte(src), 0); err == nil {
			t.Errorf("Indent(%q) accepted invalid JSON", src)
		}
	}
}

// For any valid input the output is the same JSON, equal to encoding/json's
// up to the limit, and never more than (2 + 2×limit) times the input.
func FuzzIndent(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"<x>"}]}`, `[[[[[]]]]]`, `"\u00e9\\"`, `{"":{"":{"":[1e3]}}}`} {
		f.Add([]byte(s), 2)
	}
	f.Fuzz(func(t *testing.T, src []byte, limit int) {
		limit = limit%40 + 1
		if limit < 1 {
			limit += 40
		}
		got, err := Indent(src, limit)
		if (err == nil) != json.Valid(src) {
			t.Fatalf("Indent error %v for valid=%v", err, json.Valid(src))
		}
		if err != nil {
			return
		}
		var a, b bytes.Buffer
		_ = json.Compact(&a, src)
		if err := json.Compact(&b, got); err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("Indent(%q) = %q: not the same JSON (%v)", src, got, err)
		}
		if len(got) > (2+2*limit)*len(src) {
			t.Fatalf("Indent(%q) = %d bytes", src, len(got))
		}
		if d := depth(src); d <= limit {
			var want bytes.Buffer
			_ = json.Indent(&want, bytes.TrimSpace(src), "", "  ")
			if !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("Indent(%q) = %q, encoding/json %q", src, got, want.Bytes())
			}
		}
	})
}

// depth is how deep containers nest in valid JSON.
func depth(src []byte) int {
	d, most := 0, 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '[', '{':
			d++
			most = max(most, d)
		case ']', '}':
			d--
		case '"':
			i = stringEnd(src, i) - 1
		}
	}
	return most
}

// BenchmarkIndentDeep compares a value nested 9,990 deep with a flat value
// of the same size.
func BenchmarkIndentDeep(b *testing.B) {
	deepSrc := deep(9_990, 20<<10-2*9_990)
	flat := []byte(`[` + strings.Repeat(`1,`, len(deepSrc)/2-1) + `1]`)
	for _, c := range []struct {
		name string
		src  []byte
	}{{"flat", flat}, {"deep", deepSrc}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.src)))
			for range b.N {
				_, _ = Indent(c.src, 0)
			}
		})
	}
}
