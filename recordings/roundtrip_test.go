package recordings

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// sampleFrames returns frames of every channel: a JSON control line, a
// CBOR body behind a length prefix, stream chunks, a datagram, stderr
// with an escape sequence, binary bytes and a decode error.
func sampleFrames(t testing.TB) []*capture.Frame {
	t.Helper()
	at := time.Date(2026, 11, 25, 1, 2, 3, 456789000, time.UTC)
	line := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n")
	m, err := jsonrpc.DecodeMessage(line[:len(line)-1])
	if err != nil {
		t.Fatal(err)
	}
	cborBody, err := jsonrpc.JSONToCBOR([]byte(`{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`))
	if err != nil {
		t.Fatal(err)
	}
	framed := append([]byte{0, 0, 0, byte(len(cborBody))}, cborBody...)
	cm, err := jsonrpc.Decode(proto.EncCBOR, cborBody)
	if err != nil {
		t.Fatal(err)
	}
	return []*capture.Frame{
		{Time: at, Dir: capture.Out, Conn: "stdio", Raw: line, Enc: proto.EncJSON, Msg: m,
			Fields: []proto.Field{{Offset: 0, Len: len(line) - 1, Name: "body", Kind: proto.FieldBody}, {Offset: len(line) - 1, Len: 1, Name: "LF", Kind: proto.FieldDelimiter}}},
		{Time: at.Add(time.Millisecond), Dir: capture.In, Conn: "wt", Raw: framed, Enc: proto.EncCBOR, Msg: cm,
			Fields: []proto.Field{{Offset: 0, Len: 4, Name: "length", Value: "44"}, {Offset: 4, Len: len(cborBody), Name: "body", Kind: proto.FieldBody}}},
		{Time: at.Add(2 * time.Millisecond), Dir: capture.In, Conn: "wt", Chan: capture.Channel{Kind: capture.Stream, ReqID: 2, Tag: 1},
			Raw: []byte{0x02, 0x01, 0xff, 0xfe, 0x00}, Enc: proto.EncBinary, Fields: []proto.Field{{Offset: 0, Len: 2, Name: "header"}, {Offset: 2, Len: 3, Name: "payload", Kind: proto.FieldBody}}},
		{Time: at.Add(3 * time.Millisecond), Dir: capture.In, Conn: "wt", Chan: capture.Channel{Kind: capture.Datagram, ReqID: 2, Ch: 1}, Raw: []byte{1, 2, 3}, Enc: proto.EncBinary},
		{Time: at.Add(4 * time.Millisecond), Dir: capture.In, Conn: "stdio", Chan: capture.Channel{Kind: capture.Stderr}, Raw: []byte("\x1b[31mred\x1b[0m\n"), Enc: proto.EncText},
		{Time: at.Add(5 * time.Millisecond), Dir: capture.In, Conn: "stdio", Raw: []byte("not json\n"), Enc: proto.EncJSON, Err: errors.New("not a JSON-RPC message")},
	}
}

func clone(f *capture.Frame) *capture.Frame { c := *f; c.Raw = bytes.Clone(f.Raw); return &c }

// Every frame read back has the same bytes, time, direction, connection,
// channel, annotations, encoding, error and message as the one recorded.
func TestRoundTripKeepsEveryFrameExactly(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Target: "demo", Transport: "stdio"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	frames := sampleFrames(t)
	for _, f := range frames {
		w.Append(clone(f))
	}
	w.MarkStream(capture.StreamKey{Conn: "wt", ReqID: 2, Tag: 1}, capture.StreamDone, nil)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if h := r.Header(); h.Format != Format || h.Version != Version || h.Transport != "stdio" || h.Redaction != RedactDefault {
		t.Errorf("header %+v", h)
	}
	var got []*capture.Frame
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Kind == RecFrame {
			got = append(got, rec.Frame)
		}
	}
	if !r.Ended() || len(got) != len(frames) {
		t.Fatalf("ended %v, %d frames, want %d", r.Ended(), len(got), len(frames))
	}
	for i, want := range frames {
		g := got[i]
		if !bytes.Equal(g.Raw, want.Raw) || !g.Time.Equal(want.Time) || g.Dir != want.Dir || g.Conn != want.Conn || g.Chan != want.Chan || g.Enc != want.Enc || g.Size != len(want.Raw) {
			t.Errorf("frame %d: got %+v\nwant %+v", i, g, want)
		}
		if len(g.Fields) != len(want.Fields) {
			t.Errorf("frame %d: fields %v, want %v", i, g.Fields, want.Fields)
		}
		if (g.Err == nil) != (want.Err == nil) || (want.Err != nil && g.Err.Error() != want.Err.Error()) {
			t.Errorf("frame %d: err %v, want %v", i, g.Err, want.Err)
		}
		if (g.Msg == nil) != (want.Msg == nil) || want.Msg != nil && (g.Msg.Method != want.Msg.Method || string(g.Msg.Result) != string(want.Msg.Result)) {
			t.Errorf("frame %d: msg %+v, want %+v", i, g.Msg, want.Msg)
		}
	}
}

// A file cut anywhere inside a line still opens: every record before the
// torn line is read, then a TruncatedError names it.
func TestTornTailIsDetectedAndEverythingBeforeItReads(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{Target: "demo", Transport: "stdio"}, Options{})
	for _, f := range sampleFrames(t) {
		w.Append(clone(f))
	}
	_ = w.Close()
	whole := buf.Bytes()
	lines := bytes.SplitAfter(whole, []byte("\n"))
	// Cut in the middle of the third frame line.
	cut := len(lines[0]) + len(lines[1]) + len(lines[2]) + len(lines[3])/2
	r, err := NewReader(bytes.NewReader(whole[:cut]))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		_, err := r.Next()
		if err == nil {
			n++
			continue
		}
		var te *TruncatedError
		if !errors.As(err, &te) || te.Line != 4 || !strings.Contains(err.Error(), "cut short") {
			t.Fatalf("after %d records: %v", n, err)
		}
		break
	}
	if n != 2 || r.Ended() {
		t.Errorf("read %d records before the torn line (want 2), ended %v", n, r.Ended())
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after the torn line: %v", err)
	}
}

// A corrupt line in the middle is reported with its number, and reading
// goes on after it.
func TestCorruptLineIsReportedAndSkipped(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{Target: "demo"}, Options{})
	for _, f := range sampleFrames(t)[:2] {
		w.Append(clone(f))
	}
	_ = w.Close()
	lines := bytes.SplitAfter(buf.Bytes(), []byte("\n"))
	bad := bytes.Join([][]byte{lines[0], lines[1], []byte("{\"k\":\"frame\",\"dir\":\"sideways\"}\n"), lines[2], lines[3]}, nil)
	r, err := NewReader(bytes.NewReader(bad))
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		var ce *CorruptError
		switch {
		case errors.As(err, &ce):
			kinds = append(kinds, "corrupt line "+string(rune('0'+ce.Line)))
		case err != nil:
			t.Fatal(err)
		default:
			kinds = append(kinds, map[RecordKind]string{RecFrame: "frame", RecEnd: "end"}[rec.Kind])
		}
	}
	if got := strings.Join(kinds, ","); got != "frame,corrupt line 3,frame,end" {
		t.Errorf("read %s", got)
	}
}

// Replaying into a fresh store gives the live store's frames and stream
// totals.
func TestReplayFeedsTheStoreAsLive(t *testing.T) {
	live := capture.NewStore(capture.Config{})
	path := filepath.Join(t.TempDir(), "r.jsonl")
	w, err := Create(path, Header{Target: "demo"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sink := capture.Tee(live, w)
	for _, f := range sampleFrames(t) {
		sink.Append(clone(f))
	}
	key := capture.StreamKey{Conn: "wt", ReqID: 2, Tag: 1}
	capture.Note(sink, capture.StreamMarked{Key: key, State: capture.StreamDone})
	gateway := capture.StreamKey{Conn: "gateway", Tag: 1}
	capture.Note(sink, capture.StreamLabelled{Key: gateway, Label: capture.StreamLabel{Text: "out · a.bin", ID: "550e8400-e29b-41d4-a716-446655440000", Opener: capture.In}})
	_ = w.Close()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	store, p := NewStore(capture.Config{})
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		p.Apply(rec)
	}
	if store.Len() != live.Len() {
		t.Fatalf("replayed %d frames, live %d", store.Len(), live.Len())
	}
	st, ok := store.Stream(key)
	lst, _ := live.Stream(key)
	if !ok || st.State != capture.StreamDone || st.Bytes != lst.Bytes || st.Chunks != lst.Chunks {
		t.Errorf("stream %+v, live %+v", st, lst)
	}
	if gst, _ := store.Stream(gateway); gst.Label != (capture.StreamLabel{Text: "out · a.bin", ID: "550e8400-e29b-41d4-a716-446655440000", Opener: capture.In}) {
		t.Errorf("the gateway stream's label replays as %+v", gst.Label)
	}
}
