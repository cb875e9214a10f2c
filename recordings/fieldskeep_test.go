package recordings

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// sseEventOfLines is an SSE event of n bytes of short data lines: one
// annotation per line and one per line end.
func sseEventOfLines(n int) []byte {
	var raw []byte
	for i := 0; len(raw) < n; i++ {
		raw = fmt.Appendf(raw, "data: %d\n", i)
	}
	return append(raw, '\n')
}

// recordSSEEvent writes a recording of one SSE event frame with its
// annotations and returns it.
func recordSSEEvent(t *testing.T, raw []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{Transport: "http"}, Options{NoRedact: true})
	w.Append(&capture.Frame{Dir: capture.In, Chan: capture.Channel{Kind: capture.Control}, Raw: raw, Fields: httphead.SSEEventFields(raw), Enc: proto.EncText})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// checkNotKept checks that the one frame of recs holds raw, the first of
// its annotations and one that counts the rest of total.
func checkNotKept(t *testing.T, recs []*Record, errs []string, raw []byte, total int) {
	t.Helper()
	if len(errs) > 0 || len(recs) != 2 || recs[0].Kind != RecFrame {
		t.Fatalf("%d records, errors %v", len(recs), errs)
	}
	f := recs[0].Frame
	if !bytes.Equal(f.Raw, raw) {
		t.Fatalf("the frame holds %d bytes of %d", len(f.Raw), len(raw))
	}
	last := f.Fields[len(f.Fields)-1]
	want := fmt.Sprintf("%d more annotations past what a recording keeps", total-(len(f.Fields)-1))
	if last.Name != notKeptName || last.Value != want || last.Offset+last.Len != len(raw) {
		t.Errorf("last annotation %+v, want %q to the frame's end", last, want)
	}
	if len(f.Fields) < 2 || f.Fields[0] != httphead.SSEEventFields(raw)[0] {
		t.Errorf("the first annotations are not kept: %d", len(f.Fields))
	}
}

// A 4 MiB event of short data lines has a million annotations: the
// Writer keeps the first within fieldsKeep and counts the rest, so the
// line it writes is read back whole, frame and all.
func TestTheWriterBoundsAFramesAnnotations(t *testing.T) {
	raw := sseEventOfLines(4 << 20)
	b := recordSSEEvent(t, raw)
	if n := bytes.IndexByte(b[bytes.IndexByte(b, '\n')+1:], '\n'); n > readKeep.rest+3*len(raw) {
		t.Errorf("the frame line is %d bytes", n)
	}
	recs, errs := readRecords(t, b)
	checkNotKept(t, recs, errs, raw, len(httphead.SSEEventFields(raw)))
	var c LineCounter
	_, _ = c.Write(b)
	if c.Frames != int64(len(recs)-1) {
		t.Errorf("the count says %d frames, the reader read %d", c.Frames, len(recs)-1)
	}
}

// A line whose annotations go past what a reader takes besides a frame's
// bytes (an older writer kept them all) keeps its frame: the annotations
// past the limit are dropped and counted.
func TestTheReaderDropsAnnotationsNotTheFrame(t *testing.T) {
	old := fieldsKeep
	fieldsKeep = 1 << 30
	raw := sseEventOfLines(64 << 10)
	b := recordSSEEvent(t, raw)
	fieldsKeep = old
	setReadLimits(t, 16<<10, keepLimits{value: maxFrameKeep, rest: 256 << 10, skip: true})
	recs, errs := readRecords(t, b)
	checkNotKept(t, recs, errs, raw, len(httphead.SSEEventFields(raw)))
}

// An older writer kept a message body longer than a reader takes beside
// a frame cut to what it keeps: the body is dropped and said to be, the
// frame kept.
func TestAnOversizedBodyIsDroppedNotTheFrame(t *testing.T) {
	old := maxBodyKeep
	maxBodyKeep = 1 << 30
	t.Cleanup(func() { maxBodyKeep = old })
	raw := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"cut`)
	body := append([]byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"`), bytes.Repeat([]byte("\\u00e9"), 40<<10)...)
	body = append(body, `"}}`...)
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{}, Options{NoRedact: true})
	w.Append(&capture.Frame{Dir: capture.In, Chan: capture.Channel{Kind: capture.Control}, Raw: raw, Size: len(body), Msg: &jsonrpc.Message{Raw: body}})
	_ = w.Close()
	setReadLimits(t, 16<<10, keepLimits{value: 64 << 10, rest: 64 << 10, skip: true})
	recs, errs := readRecords(t, buf.Bytes())
	if len(errs) > 0 || len(recs) != 2 || recs[0].Kind != RecFrame {
		t.Fatalf("%d records, errors %v", len(recs), errs)
	}
	f := recs[0].Frame
	if !bytes.Equal(f.Raw, raw) || f.Msg != nil || f.Err == nil || f.Err.Error() != bodyNotKept {
		t.Errorf("frame %q, message %v, error %v", f.Raw, f.Msg, f.Err)
	}
}
