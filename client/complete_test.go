package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestDecodeCompletion keeps at most MaxCompletionValues values of
// MaxCompletionValue bytes each, counts the rest, and refuses answers of
// the wrong shape as protocol violations.
func TestDecodeCompletion(t *testing.T) {
	var many []string
	for i := range 10000 {
		many = append(many, fmt.Sprintf("v%d", i))
	}
	manyJSON, _ := json.Marshal(map[string]any{"completion": map[string]any{"values": many, "total": 10000, "hasMore": true}})
	got, err := DecodeCompletion(manyJSON)
	if err != nil || len(got.Values) != MaxCompletionValues || got.Values[99] != "v99" || got.Dropped != 9900 || *got.Total != 10000 || !got.HasMore {
		t.Errorf("10,000 values: %d kept, %d dropped, err %v", len(got.Values), got.Dropped, err)
	}

	huge, _ := json.Marshal(map[string]any{"completion": map[string]any{"values": []string{"ok", strings.Repeat("x", MaxCompletionValue+1), "\x1b]0;t\x07\nx"}}})
	got, err = DecodeCompletion(huge)
	if err != nil || len(got.Values) != 2 || got.Values[1] != "\x1b]0;t\x07\nx" || got.Dropped != 1 || got.Total != nil {
		t.Errorf("a huge value: %+v, %v", got, err)
	}

	got, err = DecodeCompletion(json.RawMessage(`{"completion":{"values":[],"hasMore":true}}`))
	if err != nil || len(got.Values) != 0 || !got.HasMore {
		t.Errorf("hasMore with no values: %+v, %v", got, err)
	}
	if b, _ := json.Marshal(got); string(b) != `{"values":[],"hasMore":true}` {
		t.Errorf("encoded as %s", b)
	}

	for raw, want := range map[string]string{
		`{"completion":{"values":["a",7]}}`: "completion.values[1] is not a string",
		`{"values":["a"]}`:                  "has no completion object",
		`[1]`:                               "result is not an object",
		`{"completion":{"values":"a"}}`:     "completion.values is a string, not",
	} {
		_, err := DecodeCompletion(json.RawMessage(raw))
		var prot *ProtocolError
		if !errors.As(err, &prot) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a protocol violation saying %q", raw, err, want)
		}
	}
}

// FuzzDecodeCompletion: whatever a server answers, the decoder keeps at
// most MaxCompletionValues values of at most MaxCompletionValue bytes.
func FuzzDecodeCompletion(f *testing.F) {
	f.Add([]byte(`{"completion":{"values":["David","Eve"],"total":2,"hasMore":false}}`))
	f.Add([]byte(`{"completion":{"values":[],"hasMore":true}}`))
	f.Add([]byte(`{"completion":null}`))
	f.Add([]byte(`{"completion":{"values":["\u001b[2J",1]}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, err := DecodeCompletion(raw)
		if err != nil {
			return
		}
		if len(got.Values) > MaxCompletionValues {
			t.Fatalf("%d values kept", len(got.Values))
		}
		for _, v := range got.Values {
			if len(v) > MaxCompletionValue {
				t.Fatalf("a value of %d bytes kept", len(v))
			}
		}
	})
}

// TestDecodeCompletionHugeAnswer: an answer of hundreds of thousands of
// values costs the hundred kept, not a copy of every value.
func TestDecodeCompletionHugeAnswer(t *testing.T) {
	raw := []byte(`{"completion":{"hasMore":true,"values":["v0"`)
	for i := 1; i < 300_000; i++ {
		raw = append(raw, `,"v`...)
		raw = strconv.AppendInt(raw, int64(i), 10)
		raw = append(raw, '"')
	}
	raw = append(raw, "]}}"...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := DecodeCompletion(raw)
	runtime.ReadMemStats(&after)
	if err != nil || len(got.Values) != MaxCompletionValues || got.Values[99] != "v99" || got.Dropped != 300_000-MaxCompletionValues || !got.HasMore {
		t.Fatalf("%d values (last %q), %d dropped, %v", len(got.Values), got.Values[len(got.Values)-1], got.Dropped, err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 256<<10 {
		t.Errorf("decoding %d bytes allocated %d bytes", len(raw), n)
	}
}
