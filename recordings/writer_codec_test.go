package recordings

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// encodedBoth encodes v as the Writer does and as encoding/json does with
// HTML escaping off, the encoder recordings were first written with.
func encodedBoth(t *testing.T, v any) (writer, std string) {
	t.Helper()
	var got bytes.Buffer
	w, err := NewWriter(&got, Header{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got.Reset()
	w.io.Lock()
	w.pend.Reset()
	w.encode(v)
	writer = w.pend.String()
	w.io.Unlock()
	_ = w.Close()
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return writer, want.String()
}

// codecLine is a line with every kind of field set from s and b.
func codecLine(s string, b []byte, n int) line {
	return line{
		K: kindFrame, T: int64(n), Seq: uint64(n), Dir: "in", Conn: s, Ch: "control",
		Req: uint32(n), Tag: uint32(n), DCh: uint8(n), Text: &s, B64: b, Size: n, Enc: "cbor",
		Fields: []fieldLine{{O: n, N: n, F: s, V: s, K: uint8(n)}}, Msg: []int{n, -n},
		MText: &s, MB64: b, MEnc: s, Viol: s, Err: s, State: s, Label: s, Stream: s,
		Total: int64(n), Chunks: -int64(n), Kind: s, Method: s, ReqID: s, Of: s, After: s,
		LastID: s, Why: s, Transport: s, Era: s, Protocol: s,
	}
}

// TestLinesEncodeAsEncodingJSON holds the Writer's encoder to the bytes
// encoding/json writes for the same line: recordings written before and
// after read the same, whatever a server's text holds.
func TestLinesEncodeAsEncodingJSON(t *testing.T) {
	for _, s := range []string{
		"", "plain", `{"jsonrpc":"2.0","method":"x"}` + "\n", "<b>&amp;</b>", "a\u2028b\u2029c",
		"\x00\x01\x1f\x7f", "\xff\xfe invalid", "\xed\xa0\x80 surrogate", "é \U0010eeee 😀", `\"/`,
	} {
		got, want := encodedBoth(t, codecLine(s, []byte(s), len(s)))
		if got != want {
			t.Errorf("%q:\n writer        %s\n encoding/json %s", s, got, want)
		}
	}
	h := Header{Format: Format, Version: Version, Target: "x <y>", Started: time.Date(2026, 1, 2, 3, 4, 5, 6, time.FixedZone("z", 3600))}
	if got, want := encodedBoth(t, h); got != want {
		t.Errorf("header:\n writer        %s\n encoding/json %s", got, want)
	}
}

// FuzzLineEncoding is TestLinesEncodeAsEncodingJSON for any text and bytes
// a server could send.
func FuzzLineEncoding(f *testing.F) {
	f.Add("a\u2028b", []byte{0xff}, 3)
	f.Add("\xed\xa0\x80<>&", []byte(nil), -1)
	f.Fuzz(func(t *testing.T, s string, b []byte, n int) {
		got, want := encodedBoth(t, codecLine(s, b, n))
		if got != want {
			t.Fatalf("%q:\n writer        %s\n encoding/json %s", s, got, want)
		}
	})
}
