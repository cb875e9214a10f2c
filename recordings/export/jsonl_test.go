package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/recordings"
)

// exported is one line of a JSON Lines export, read back as the object
// of a frame and as that of any other record.
type exported struct {
	jsonFrame
	event jsonEvent
	Raw   []byte
}

// bytes returns the frame's bytes from text or base64, failing unless it
// holds exactly one of them.
func (e exported) bytes(t *testing.T) []byte {
	t.Helper()
	switch {
	case e.Text != nil && e.Base64 == nil:
		return []byte(*e.Text)
	case e.Base64 != nil && e.Text == nil:
		return e.Base64
	}
	t.Fatalf("frame %d holds text %v and base64 %v: want exactly one", e.Seq, e.Text != nil, e.Base64 != nil)
	return nil
}

// parseJSONL parses an export line by line.
func parseJSONL(t *testing.T, out []byte) []exported {
	t.Helper()
	var lines []exported
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var e exported
		if err := json.Unmarshal(sc.Bytes(), &e.jsonFrame); err != nil {
			t.Fatalf("line %q is not a JSON object: %v", sc.Text(), err)
		}
		if err := json.Unmarshal(sc.Bytes(), &e.event); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		e.Raw = bytes.Clone(sc.Bytes())
		lines = append(lines, e)
	}
	return lines
}

// sessionFrames are frames of every channel: a request line, an error
// answer, stderr holding escape sequences and a C1 control, a stream
// chunk of binary bytes, a datagram, an undecodable line and a capped
// chunk.
func sessionFrames(t *testing.T) []*capture.Frame {
	req := control(t, capture.Out, "stdio", `{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"name":"echo"}}`, "\n", 0)
	req.Fields = append(req.Fields, proto.Field{Offset: len(req.Raw) - 1, Len: 1, Name: "delimiter", Value: "LF", Kind: proto.FieldDelimiter})
	stream := capture.Channel{Kind: capture.Stream, ReqID: 7, Tag: 2}
	return []*capture.Frame{
		req,
		control(t, capture.In, "stdio", `{"jsonrpc":"2.0","id":"a-1","error":{"code":-32602,"message":"Unknown tool"}}`, "\n", 1),
		{Time: at.Add(2 * time.Millisecond), Dir: capture.In, Conn: "stdio", Chan: capture.Channel{Kind: capture.Stderr}, Raw: []byte("\x1b[31mred\u009b2J\x1b[0m\n"), Enc: proto.EncText},
		{Time: at.Add(3 * time.Millisecond), Dir: capture.In, Conn: "wt", Chan: stream, Raw: []byte{0, 0, 0, 7, 0xff, 0xfe, 0x00}, Enc: proto.EncBinary,
			Fields: []proto.Field{{Offset: 0, Len: 4, Name: "request id", Value: "7"}, {Offset: 4, Len: 3, Name: "payload", Kind: proto.FieldBody}}},
		{Time: at.Add(4 * time.Millisecond), Dir: capture.In, Conn: "wt", Chan: capture.Channel{Kind: capture.Datagram, ReqID: 7, Ch: 1}, Raw: []byte{1, 2, 3}, Enc: proto.EncBinary},
		control(t, capture.In, "stdio", `not json`, "\n", 5),
		{Time: at.Add(6 * time.Millisecond), Dir: capture.In, Conn: "wt", Chan: stream, Raw: []byte("head"), Size: 1000, Enc: proto.EncBinary},
	}
}

// Every frame becomes one object with its exact bytes (text when UTF-8,
// base64 otherwise), time, direction, channel and ids, size, annotations,
// message and error; every stream, SSE, link and end record an object of
// its kind; the header comes first.
func TestJSONLHoldsEveryRecord(t *testing.T) {
	frames := sessionFrames(t)
	key := capture.StreamKey{Conn: "wt", ReqID: 7, Tag: 2}
	rec := record(t, "stdio", func(w *recordings.Writer) {
		for _, f := range frames {
			w.Append(f)
		}
		w.LabelStream(key, capture.StreamLabel{Text: "read_file", ID: "550e8400-e29b-41d4-a716-446655440000", Opener: capture.In})
		w.SetStreamSize(key, 1007)
		w.MarkStream(key, capture.StreamError, errors.New("reset by peer"))
		w.OpenSSE("http POST 3", capture.SSEStart{Kind: capture.SSEAnswer, Method: "tools/call", ReqID: "2"})
		w.SSEEvent("http POST 3", 9, 40, "ev-1")
		w.EndSSE("http POST 3", capture.SSEBroken, "cut")
		w.Link("stdio", "legacy", "2025-11-25")
	})
	var out bytes.Buffer
	d, err := WriteJSONL(&out, reader(t, rec))
	if err != nil || d.Torn != nil || d.Skipped != 0 {
		t.Fatalf("WriteJSONL: %v, %+v", err, d)
	}
	if bytes.ContainsAny(out.Bytes(), "\x1b\u009b") {
		t.Errorf("the export holds a raw escape or C1 control:\n%s", out.Bytes())
	}
	lines := parseJSONL(t, out.Bytes())
	var kinds []string
	for _, l := range lines {
		kinds = append(kinds, l.Kind)
	}
	want := "header frame frame frame frame frame frame frame stream_label stream_size stream_mark sse_open sse_event sse_end link end"
	if got := strings.Join(kinds, " "); got != want {
		t.Fatalf("kinds\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(string(lines[0].Raw), `"transport":"stdio"`) || !strings.Contains(string(lines[0].Raw), `"target":"http://127.0.0.1:3000/mcp"`) {
		t.Errorf("header %s", lines[0].Raw)
	}
	for i, f := range frames {
		e := lines[1+i]
		kept := f.Raw
		if got := e.bytes(t); !bytes.Equal(got, kept) {
			t.Errorf("frame %d: bytes %q, want %q", i, got, kept)
		}
		if e.Seq != int64(i+1) || e.Time != f.Time.UTC().Format(time.RFC3339Nano) || e.Dir != f.Dir.String() || e.Conn != f.Conn ||
			e.Size != max(f.Size, len(f.Raw)) || e.Encoding != f.Enc.String() {
			t.Errorf("frame %d: %s", i, e.Raw)
		}
		if (e.Text != nil) != (i != 3) {
			t.Errorf("frame %d: text %v, base64 %v", i, e.Text != nil, e.Base64 != nil)
		}
		if len(e.Annotations) != len(f.Fields) {
			t.Errorf("frame %d: %d annotations, want %d", i, len(e.Annotations), len(f.Fields))
		}
	}
	if m := lines[1].Message; m == nil || m.Kind != "request" || m.Method != "tools/call" || string(m.ID) != `"a-1"` {
		t.Errorf("request message %s", lines[1].Raw)
	}
	if m := lines[2].Message; m == nil || m.Kind != "error" || m.Error == nil || m.Error.Code != -32602 || string(m.ID) != `"a-1"` {
		t.Errorf("error message %s", lines[2].Raw)
	}
	if a := lines[1].Annotations; len(a) != 2 || a[0].Kind != "body" || a[1] != (jsonField{Offset: len(frames[0].Raw) - 1, Length: 1, Name: "delimiter", Value: "LF", Kind: "delimiter"}) {
		t.Errorf("annotations %+v", a)
	}
	if s := lines[4]; s.Channel != "stream" || s.ReqID == nil || *s.ReqID != 7 || s.Tag == nil || *s.Tag != 2 || s.DatagramCh != nil {
		t.Errorf("stream frame %s", s.Raw)
	}
	if g := lines[5]; g.Channel != "datagram" || g.ReqID == nil || *g.ReqID != 7 || g.DatagramCh == nil || *g.DatagramCh != 1 || g.Tag != nil {
		t.Errorf("datagram frame %s", g.Raw)
	}
	if bad := lines[6]; bad.Error == "" || bad.Message != nil {
		t.Errorf("undecodable frame %s", bad.Raw)
	}
	if c := lines[7]; c.Size != 1000 || c.Kept == nil || *c.Kept != 4 {
		t.Errorf("capped frame %s", c.Raw)
	}
	if m := lines[10].event; m.State != "error" || m.Error != "reset by peer" || *m.ReqID != 7 {
		t.Errorf("mark %s", lines[10].Raw)
	}
	if l := lines[8].event; l.Label != "read_file" || l.Stream != "550e8400-e29b-41d4-a716-446655440000" || l.Opener != "in" {
		t.Errorf("label %s", lines[8].Raw)
	}
	if s := lines[11].event; s.SSEKind != "answer" || s.Conn != "http POST 3" || s.RequestID != "2" || s.Method != "tools/call" {
		t.Errorf("sse_open %s", lines[11].Raw)
	}
	if s := lines[12].event; s.LiveSeq != 9 || *s.Size != 40 || s.LastID != "ev-1" {
		t.Errorf("sse_event %s", lines[12].Raw)
	}
	if s := lines[13].event; s.State != "broken" || s.Why != "cut" {
		t.Errorf("sse_end %s", lines[13].Raw)
	}
	if l := lines[14].event; l.Transport != "stdio" || l.Era != "legacy" || l.Protocol != "2025-11-25" {
		t.Errorf("link %s", lines[14].Raw)
	}
}

// A stream past --record-stream-max is recorded as totals and its tail;
// the export gives both.
func TestJSONLStreamRest(t *testing.T) {
	key := capture.StreamKey{Conn: "wt", ReqID: 1, Tag: 1}
	rec := new(bytes.Buffer)
	w, err := recordings.NewWriter(rec, recordings.Header{Transport: "wt"}, recordings.Options{StreamMax: 4})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		w.Append(&capture.Frame{Time: at, Dir: capture.In, Conn: "wt", Chan: capture.Channel{Kind: capture.Stream, ReqID: 1, Tag: 1}, Raw: []byte{'a' + byte(i), 'b', 'c'}, Enc: proto.EncBinary})
	}
	w.MarkStream(key, capture.StreamDone, nil)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := WriteJSONL(&out, reader(t, rec.Bytes())); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"kind":"stream_rest"`) || !strings.Contains(out.String(), `"chunks":1,"bytes":3,"tail_text":"bccbc"`) {
		t.Errorf("no stream_rest with the totals and the tail:\n%s", out.String())
	}
}

// Walk exports everything before a torn last line and names it; it skips
// a corrupt line, names the first recordings.MaxCorruptNamed and counts the rest.
func TestWalkDamage(t *testing.T) {
	frames := sessionFrames(t)
	rec := record(t, "stdio", func(w *recordings.Writer) {
		for _, f := range frames {
			w.Append(f)
		}
	})
	lines := bytes.SplitAfter(rec, []byte("\n"))
	count := func(b []byte) (int, recordings.Damage) {
		var out bytes.Buffer
		d, err := WriteJSONL(&out, reader(t, b))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, l := range parseJSONL(t, out.Bytes()) {
			if l.Kind == KindFrame {
				n++
			}
		}
		return n, d
	}

	torn := bytes.Join(lines[:4], nil)
	torn = append(torn, lines[4][:len(lines[4])/2]...)
	n, d := count(torn)
	if n != 3 || d.Torn == nil || d.Torn.Line != 5 || d.Skipped != 0 {
		t.Errorf("torn: %d frames, %+v", n, d)
	}

	bad := bytes.Clone(lines[0])
	for range recordings.MaxCorruptNamed + 2 {
		bad = append(bad, "{not a record\n"...)
	}
	bad = append(bad, bytes.Join(lines[1:], nil)...)
	n, d = count(bad)
	if n != len(frames) || d.Torn != nil || d.Skipped != recordings.MaxCorruptNamed+2 || len(d.Corrupt) != recordings.MaxCorruptNamed || d.Corrupt[0].Line != 2 {
		t.Errorf("corrupt: %d frames, %+v", n, d)
	}
}

// A frame's bytes past streamBytesOver are written in pieces, and the
// line is the one encoded whole: text with every escape, and base64.
func TestLongFrameBytesAreWrittenInPieces(t *testing.T) {
	frames := []*capture.Frame{
		{Dir: capture.In, Conn: "c", Chan: capture.Channel{Kind: capture.Stderr}, Enc: proto.EncText,
			Raw: []byte(strings.Repeat("a\x01\"\\é\u2028\u202e😀\x7f\u0085", 3000))},
		{Dir: capture.Out, Conn: "c", Chan: capture.Channel{Kind: capture.Control}, Enc: proto.EncCBOR,
			Raw: bytes.Repeat([]byte{0xff, 0, 'x'}, 5000)},
	}
	export := func() string {
		var out bytes.Buffer
		j := NewJSONL(&out)
		for i, f := range frames {
			j.frames = int64(i + 1)
			if err := j.writeFrame(f, 0); err != nil {
				t.Fatal(err)
			}
		}
		if err := j.Flush(); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	whole := export()
	oldOver, oldPiece := streamBytesOver, bytesPiece
	streamBytesOver, bytesPiece = 100, 7
	t.Cleanup(func() { streamBytesOver, bytesPiece = oldOver, oldPiece })
	if pieces := export(); pieces != whole {
		t.Errorf("in pieces:\n%.300s\nwhole:\n%.300s", pieces, whole)
	}
	for _, l := range strings.Split(strings.TrimSpace(whole), "\n") {
		var o jsonFrame
		if err := json.Unmarshal([]byte(l), &o); err != nil || o.Text == nil && o.Base64 == nil {
			t.Errorf("line %.100s: %v", l, err)
		}
	}
}
