package recordings

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
)

// validRecording is a small recording of every record kind, for seeds.
func validRecording(t testing.TB) []byte {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Target: "demo", Transport: "wt"}, Options{StreamMax: 150})
	if err != nil {
		t.Fatal(err)
	}
	key := capture.StreamKey{Conn: "wt", ReqID: 4, Tag: 1}
	for _, f := range sampleFrames(t) {
		w.Append(f)
	}
	for range 3 {
		w.Append(chunk(key, 'q', 100))
	}
	w.LabelStream(key, capture.StreamLabel{Text: "out.bin"})
	w.SetStreamSize(key, 300)
	w.OpenSSE("http POST 1", capture.SSEStart{Kind: capture.SSEAnswer, Method: "tools/call", ReqID: "1"})
	w.SSEEvent("http POST 1", 3, 40, "e1")
	w.EndSSE("http POST 1", capture.SSEDone, "")
	w.MarkStream(key, capture.StreamDone, nil)
	w.Link("MCP-Flow", "modern", "2026-07-28")
	_ = w.Close()
	return buf.Bytes()
}

// FuzzReader: whatever a file holds, reading it ends in io.EOF, a torn
// tail or a header error, reports each bad line as corrupt, never panics,
// and every record it yields replays into a store.
func FuzzReader(f *testing.F) {
	valid := validRecording(f)
	f.Add(valid)
	f.Add(valid[:len(valid)/2])
	f.Add(append(bytes.Clone(valid[:bytes.IndexByte(valid, '\n')+1]), []byte(`{"k":"frame","dir":"in","ch":"control","text":"x","fields":[{"o":5,"n":1,"f":"x"}]}`+"\n")...))
	f.Add(append(bytes.Clone(valid[:bytes.IndexByte(valid, '\n')+1]), []byte(`{"k":"frame","dir":"in","ch":"control","text":"{}","msg":[1,9]}`+"\n{\"k\":\"stream_rest\",\"chunks\":-1}\n")...))
	f.Add([]byte(`{"format":"mcpscope-recording","version":99}` + "\n"))
	f.Add([]byte("\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		store, p := NewStore(capture.Config{MaxFrames: 64})
		for range len(data) + 2 {
			rec, err := r.Next()
			if err == io.EOF {
				return
			}
			var te *TruncatedError
			var ce *CorruptError
			switch {
			case errors.As(err, &te):
				if _, err := r.Next(); err != io.EOF {
					t.Fatalf("after a torn tail: %v", err)
				}
				return
			case errors.As(err, &ce):
				continue
			case err != nil:
				t.Fatalf("untyped error: %v", err)
			}
			p.Apply(rec)
			_ = store.Streams()
		}
		t.Fatal("the reader never ended")
	})
}

// FuzzCutRecording: a recording cut at any byte opens when its header is
// whole, and yields exactly the records whose lines are whole.
func FuzzCutRecording(f *testing.F) {
	valid := validRecording(f)
	f.Add(uint16(len(valid) / 2))
	f.Add(uint16(bytes.IndexByte(valid, '\n') + 1))
	f.Fuzz(func(t *testing.T, at uint16) {
		cut := valid[:min(int(at), len(valid))]
		r, err := NewReader(bytes.NewReader(cut))
		headerEnd := bytes.IndexByte(valid, '\n') + 1
		if len(cut) < headerEnd {
			if err == nil {
				t.Fatal("a torn header opened")
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		whole := bytes.Count(cut[headerEnd:], []byte("\n"))
		n := 0
		for {
			_, err := r.Next()
			if err == nil {
				n++
				continue
			}
			var te *TruncatedError
			if err != io.EOF && !errors.As(err, &te) {
				t.Fatalf("cut at %d: %v", at, err)
			}
			break
		}
		if n != whole {
			t.Fatalf("cut at %d: %d records, %d whole lines", at, n, whole)
		}
	})
}

// FuzzRedact: masking never changes a length nor its input, never panics,
// and masks something wherever a secret appears.
func FuzzRedact(f *testing.F) {
	f.Add([]byte(`{"access_token":"abc\"def","x":{"Client_Secret" : "q"}}`), "abcd")
	f.Add([]byte("a=1&password=hunter2 "), "hunter2")
	f.Add([]byte(`"unterminated`), "")
	f.Fuzz(func(t *testing.T, b []byte, secret string) {
		r := &redactor{secrets: [][]byte{[]byte(secret)}, headers: map[string]bool{"x-key": true}}
		if len(secret) < 4 {
			r.secrets = nil
		}
		in := bytes.Clone(b)
		out := r.redact(b, true)
		if len(out) != len(b) || !bytes.Equal(b, in) {
			t.Fatalf("length %d → %d, or the input changed", len(b), len(out))
		}
		if r.secrets != nil && !strings.ContainsAny(secret, "*<>") && bytes.Count(in, []byte(secret)) > 0 && bytes.Equal(out, in) {
			t.Fatalf("%q holds %q and nothing was masked", in, secret)
		}
	})
}

// FuzzFrameLineReader: whenever the frame line reader accepts a line,
// encoding/json reads the same line from it.
func FuzzFrameLineReader(f *testing.F) {
	for _, l := range bytes.Split(validRecording(f), []byte("\n")) {
		f.Add(l)
	}
	f.Add([]byte(`{"k":"frame","t":-0,"msg":[],"fields":[],"text":"\ud83d\ude00\u0000\/"}`))
	f.Add([]byte(`{"k":"frame","b64":"AA==","mb64":"","seq":18446744073709551615,"req":4294967295}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var fast line
		if (&scanner{b: b}).frame(&fast) != nil {
			return
		}
		var want line
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatalf("the frame reader took %q, encoding/json refuses it: %v", b, err)
		}
		if !reflect.DeepEqual(fast, want) {
			t.Fatalf("%q:\nframe reader %+v\nencoding/json %+v", b, fast, want)
		}
	})
}
