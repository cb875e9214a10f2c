package recordings

import (
	"bytes"
	"encoding/json"
	"testing"
)

// marshalLine is what encoding/json writes for l.
func marshalLine(t testing.TB, l *line) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(l); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The hand-written frame encoder writes exactly what encoding/json
// writes for the same line.
func TestFrameLineMatchesEncodingJSON(t *testing.T) {
	text := "{\"a\":\"\\u0000\t\x01\"}\n<&> \u2028\u2029 é 😀"
	for i, f := range sampleFrames(t) {
		for _, l := range []line{frameLine(f, len(f.Raw), nil), frameLine(f, 1, &redactor{})} {
			if got, want := appendFrameLine(nil, &l), marshalLine(t, &l); !bytes.Equal(got, want) {
				t.Errorf("frame %d:\n got %s\nwant %s", i, got, want)
			}
		}
	}
	l := line{K: kindFrame, T: -5, Seq: 1 << 63, Dir: "in", Conn: "c\x7f\xff", Ch: "stream", Req: 1<<32 - 1, Tag: 7, DCh: 255,
		Text: &text, Size: 9, Enc: "text", Fields: []fieldLine{{O: 0, N: 0, F: ""}, {O: 3, N: 4, F: "x\"y", V: "\xfe", K: 2}},
		Msg: []int{}, MB64: []byte{0, 1, 2}, MEnc: "cbor", Viol: "v", Err: "e\n"}
	if got, want := appendFrameLine(nil, &l), marshalLine(t, &l); !bytes.Equal(got, want) {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}

// FuzzFrameLine: for any strings and bytes, the hand-written encoder and
// encoding/json agree byte for byte.
func FuzzFrameLine(f *testing.F) {
	f.Add("stdio", "\x00\u2028\xff", []byte{0xc3}, "v", int64(-1))
	f.Fuzz(func(t *testing.T, conn, text string, raw []byte, value string, n int64) {
		l := line{K: kindFrame, T: n, Dir: "out", Conn: conn, Ch: "control", Text: &text, Size: int(n & 0xffff), Err: value,
			Fields: []fieldLine{{O: int(n & 0xff), N: 1, F: value, V: conn}}, MB64: raw}
		if got, want := appendFrameLine(nil, &l), marshalLine(t, &l); !bytes.Equal(got, want) {
			t.Fatalf("\n got %s\nwant %s", got, want)
		}
	})
}
