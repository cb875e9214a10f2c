package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto/internal/prototest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// seedGUID is the stream id of seed 003's examples.
func seedGUID(t testing.TB) GUID {
	t.Helper()
	g, err := ParseGUID("550e8400-e29b-41d4-a716-446655440000")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Each type encodes to the seed's field names, the id as the GUID's text and
// the timestamp in UTC.
func TestEncodeStreamMessageBytes(t *testing.T) {
	id := seedGUID(t)
	at := time.Date(2024, 12, 4, 11, 0, 0, 0, time.FixedZone("CET", 3600))
	size := int64(1048576)
	idx := int64(3)
	cases := []struct {
		m    StreamMessage
		want string
	}{
		{StreamMessage{Type: StreamStart, ID: id, Timestamp: at, Meta: &StreamMeta{Method: "system_binary_streams_in", Binary: true, Name: "a.bin", TotalSize: &size}},
			`{"type":"start","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2024-12-04T10:00:00Z","meta":{"method":"system_binary_streams_in","binary":true,"name":"a.bin","totalSize":1048576}}`},
		{StreamMessage{Type: StreamChunk, ID: id, Timestamp: at, Index: &idx, Data: json.RawMessage(`"Hello, world!"`)},
			`{"type":"chunk","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2024-12-04T10:00:00Z","index":3,"data":"Hello, world!"}`},
		{StreamMessage{Type: StreamDone, ID: id, Timestamp: at, Summary: json.RawMessage(`{"totalChunks":128}`)},
			`{"type":"done","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2024-12-04T10:00:00Z","summary":{"totalChunks":128}}`},
		{StreamMessage{Type: StreamError, ID: id, Timestamp: at, Error: &jsonrpc.Error{Code: -32000, Message: "Stream timeout", Data: json.RawMessage(`{"timeout":30}`)}},
			`{"type":"error","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2024-12-04T10:00:00Z","error":{"code":-32000,"message":"Stream timeout","data":{"timeout":30}}}`},
	}
	for _, c := range cases {
		b, err := EncodeStreamMessage(&c.m)
		if err != nil || string(b) != c.want {
			t.Errorf("%s:\n got %s, %v\nwant %s", c.m.Type, b, err, c.want)
			continue
		}
		back, err := DecodeStreamMessage(b)
		if err != nil {
			t.Fatalf("%s: decoding what was encoded: %v", c.m.Type, err)
		}
		again, _ := EncodeStreamMessage(back)
		if !bytes.Equal(again, b) {
			t.Errorf("%s: round trip\n got %s\nwant %s", c.m.Type, again, b)
		}
	}
}

// Chunk data may be any JSON value, null included.
func TestStreamChunkDataKinds(t *testing.T) {
	for _, data := range []string{`"s"`, `1.5`, `true`, `{"a":1}`, `[1,2]`, `null`} {
		in := `{"type":"chunk","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2024-12-04T10:00:01Z","index":0,"data":` + data + `}`
		m, err := DecodeStreamMessage([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if data != "null" && string(m.Data) != data {
			t.Errorf("data %s decoded as %s", data, m.Data)
		}
	}
}

// Frames that break the seed are refused with a reason; JSON-RPC is not a
// StreamMessage.
func TestDecodeStreamMessageRefuses(t *testing.T) {
	const id = `"id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2024-12-04T10:00:00Z"`
	cases := map[string]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`: "not a StreamMessage",
		`{"type":"ping"}`:                          "no stream id",
		`[1]`:                                      "not a StreamMessage",
		`{"type":"start","id":"nope","timestamp":"2024-12-04T10:00:00Z","meta":{"method":"x"}}`: "stream id",
		`{"type":"start",` + id + `}`:            "meta with a method",
		`{"type":"chunk",` + id + `}`:            "index",
		`{"type":"chunk",` + id + `,"index":-1}`: "index",
		`{"type":"done",` + id + `,"summary":3}`: "summary must be an object",
		`{"type":"error",` + id + `}`:            "error object",
		`{"type":"pause",` + id + `}`:            "unknown type",
		`{"type":"done","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"yesterday"}`: "ISO 8601",
		`{"type":"done","id":null,"timestamp":"2024-12-04T10:00:00Z"}`:                        "no stream id",
	}
	for in, want := range cases {
		_, err := DecodeStreamMessage([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
	if _, err := DecodeStreamMessage([]byte(`{"jsonrpc":"2.0","type":"x"}`)); !errors.Is(err, ErrNotStreamMessage) {
		t.Errorf("JSON-RPC with a type member: %v", err)
	}
}

// A binary chunk frame is the 24-byte header (.NET order GUID, int64 LE
// index) and the payload.
func TestAppendGatewayChunkBytes(t *testing.T) {
	b := AppendGatewayChunk(nil, seedGUID(t), 258, []byte("hi"))
	want := prototest.Unhex(t, "00 84 0e 55 9b e2 d4 41 a7 16 44 66 55 44 00 00 02 01 00 00 00 00 00 00 68 69")
	if !bytes.Equal(b, want) {
		t.Fatalf("chunk frame % x\nwant % x", b, want)
	}
}

func FuzzDecodeStreamMessage(f *testing.F) {
	f.Add([]byte(`{"type":"start","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2024-12-04T10:00:00Z","meta":{"method":"m","binary":true}}`))
	f.Add([]byte(`{"type":"chunk","id":"{550E8400E29B41D4A716446655440000}","timestamp":"2024-12-04T10:00:00.5+01:00","index":1,"data":[1]}`))
	f.Add([]byte(`{"type":"error","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2024-12-04T10:00:00Z","error":{"code":1,"message":""}}`))
	f.Add([]byte(`{"type":"ping"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeStreamMessage(b)
		if err != nil {
			return
		}
		out, err := EncodeStreamMessage(m)
		if err != nil {
			t.Fatalf("a decoded message does not encode: %v", err)
		}
		back, err := DecodeStreamMessage(out)
		if err != nil {
			t.Fatalf("%s re-encoded as %s does not decode: %v", b, out, err)
		}
		// A zero timestamp (the year 1, written out) is encoded as the
		// current time, as EncodeStreamMessage says.
		if back.Type != m.Type || back.ID != m.ID || !m.Timestamp.IsZero() && !back.Timestamp.Equal(m.Timestamp) {
			t.Fatalf("round trip changed %+v into %+v", m, back)
		}
	})
}

// Members the seed does not name survive a round trip, in key order after
// the named ones.
func TestStreamMetaKeepsExtraMembers(t *testing.T) {
	var m StreamMeta
	if err := json.Unmarshal([]byte(`{"method":"misbehave","mode":"rfc_guid","binary":true,"z":{"a":1}}`), &m); err != nil {
		t.Fatal(err)
	}
	if m.Method != "misbehave" || !m.Binary || string(m.Extra["mode"]) != `"rfc_guid"` || len(m.Extra) != 2 {
		t.Fatalf("decoded %+v", m)
	}
	b, err := json.Marshal(m)
	if err != nil || string(b) != `{"method":"misbehave","binary":true,"mode":"rfc_guid","z":{"a":1}}` {
		t.Errorf("encoded %s, %v", b, err)
	}
	m.Extra["method"] = json.RawMessage(`"shadow"`)
	if b, _ := json.Marshal(m); string(b) != `{"method":"misbehave","binary":true,"mode":"rfc_guid","z":{"a":1}}` {
		t.Errorf("an extra member shadowed a named one: %s", b)
	}
}

// Decoding into a meta that holds values adds to them: what --meta does
// to the meta an upload made.
func TestStreamMetaDecodesOverItsValues(t *testing.T) {
	size := int64(5)
	m := StreamMeta{Method: "m", Binary: true, Name: "a.bin", TotalSize: &size}
	if err := json.Unmarshal([]byte(`{"mime":"x/y","mode":"fast"}`), &m); err != nil {
		t.Fatal(err)
	}
	if !m.Binary || m.Name != "a.bin" || m.TotalSize == nil || *m.TotalSize != 5 || m.Mime != "x/y" || string(m.Extra["mode"]) != `"fast"` {
		t.Errorf("meta %+v", m)
	}
}

// What seed 003 requires but a reader can do without is decoded all the
// same and named in Violation: a timestamp with an offset other than UTC's
// (ISO 8601 UTC), a start whose meta lacks binary or has it null.
func TestStreamMessageViolations(t *testing.T) {
	const id = `"id":"550e8400-e29b-41d4-a716-446655440000"`
	cases := []struct{ in, want string }{
		{`{"type":"start",` + id + `,"timestamp":"2024-12-04T10:00:00Z","meta":{"method":"m","binary":false}}`, ""},
		{`{"type":"chunk",` + id + `,"timestamp":"2024-12-04T10:00:00+00:00","index":0,"data":1}`, ""},
		{`{"type":"chunk",` + id + `,"timestamp":"2024-12-04T11:00:00+01:00","index":0,"data":1}`,
			`chunk StreamMessage 550e8400-e29b-41d4-a716-446655440000: timestamp "2024-12-04T11:00:00+01:00" is not in UTC (a gateway stream wants ISO 8601 UTC)`},
		{`{"type":"start",` + id + `,"timestamp":"2024-12-04T10:00:00Z","meta":{"method":"m"}}`,
			`start StreamMessage 550e8400-e29b-41d4-a716-446655440000: its meta has no binary (true or false), which a gateway stream requires`},
		{`{"type":"start",` + id + `,"timestamp":"2024-12-04T10:00:00Z","meta":{"method":"m","binary":null}}`, "its meta has no binary"},
		{`{"type":"start",` + id + `,"timestamp":"2024-12-04T04:00:00-06:00","meta":{"method":"m"}}`, "not in UTC (a gateway stream wants ISO 8601 UTC); its meta has no binary"},
	}
	for _, c := range cases {
		m, err := DecodeStreamMessage([]byte(c.in))
		if err != nil {
			t.Errorf("%s: refused: %v", c.in, err)
			continue
		}
		got := ""
		if m.Violation != nil {
			got = m.Violation.Error()
		}
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: violation %q, want %q", c.in, got, c.want)
		}
		if !m.Timestamp.Equal(time.Date(2024, 12, 4, 10, 0, 0, 0, time.UTC)) {
			t.Errorf("%s: timestamp %v", c.in, m.Timestamp)
		}
	}
	// What mcpscope writes breaks nothing.
	b, err := EncodeStreamMessage(&StreamMessage{Type: StreamStart, ID: seedGUID(t), Timestamp: time.Date(2024, 12, 4, 11, 0, 0, 0, time.FixedZone("CET", 3600)), Meta: &StreamMeta{Method: "m"}})
	if err != nil {
		t.Fatal(err)
	}
	if m, err := DecodeStreamMessage(b); err != nil || m.Violation != nil {
		t.Errorf("%s: %v, %v", b, err, m.Violation)
	}
}
