package termtext

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestJSONEscapesWhatATerminalActsOn(t *testing.T) {
	in := []byte("{\"text\":\"csi\u009b2J rtl\u202e del\x7f bad\xff ok é picture\U0010EEEE\"}")
	want := `{"text":"csi\u009b2J rtl\u202e del\u007f bad\ufffd ok é picture\udbfb\udeee"}`
	got := JSON(in)
	if string(got) != want {
		t.Fatalf("JSON = %s, want %s", got, want)
	}
	var a, b any
	if json.Unmarshal(in, &a) != nil || json.Unmarshal(got, &b) != nil {
		t.Fatal("not JSON")
	}
	if ja, _ := json.Marshal(a); !bytes.Equal(ja, mustMarshal(t, b)) {
		t.Fatalf("the value changed: %v vs %v", a, b)
	}
	plain := []byte(`{"a":"日本"}`)
	if got := JSON(plain); &got[0] != &plain[0] {
		t.Fatal("safe JSON was copied")
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decodeNumbers decodes JSON keeping numbers as written, so that a number
// too large for a float64 still decodes.
func decodeNumbers(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

func FuzzJSON(f *testing.F) {
	f.Add([]byte("{\"a\":\"\u009b\u202e\x7f\xff\"}"))
	f.Add([]byte(`[1,"x",{"b":null}]`))
	f.Fuzz(func(t *testing.T, in []byte) {
		out := JSON(in)
		for _, r := range string(out) {
			if r == 0x7f || unsafeRune(r) {
				t.Fatalf("%U left in %q", r, out)
			}
		}
		if !json.Valid(in) {
			return
		}
		a, errIn := decodeNumbers(in)
		b, err := decodeNumbers(out)
		if (err == nil) != (errIn == nil) {
			t.Fatalf("escaped JSON decodes with %v, the original with %v (%q)", err, errIn, out)
		}
		if err == nil && !bytes.Equal(mustMarshal(t, a), mustMarshal(t, b)) {
			t.Fatalf("the value changed: %q → %q", in, out)
		}
	})
}
