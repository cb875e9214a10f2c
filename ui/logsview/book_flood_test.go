package logsview

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// TestNoteDoesNotDecodeBigData: a log message of megabytes costs the book
// a scan, not a decode of its data: Note allocates a few KiB for it (the
// cut it keeps), however big the data, in whatever member order.
func TestNoteDoesNotDecodeBigData(t *testing.T) {
	big, _ := json.Marshal(strings.Repeat("\u202e\x1b[2Jdata ", 1<<17))
	// The Go SDK writes data first, the TypeScript SDK level first.
	for _, params := range []string{
		`{"data":` + string(big) + `,"level":"warning","logger":"flood"}`,
		`{"level":"warning","logger":"flood","data":` + string(big) + `}`,
	} {
		f := &capture.Frame{Seq: 1, Dir: capture.In, Msg: &jsonrpc.Message{JSONRPC: "2.0", Method: mcp.MethodNotifyMessage, Params: json.RawMessage(params)}}
		b := NewBook()
		bytes := noteBytes(b, f)
		if l := b.At(0); l.Level != "warning" || l.Logger != "flood" || !l.Cut || len(l.Data) != maxData {
			t.Fatalf("line %q/%q cut %v, %d bytes of data", l.Level, l.Logger, l.Cut, len(l.Data))
		}
		if bytes > 64<<10 {
			t.Errorf("Note of %d bytes of params allocated %d bytes", len(params), bytes)
		}
	}
}

// TestNoteOfBadParams: params that are no object are the data of a line
// of level "?"; a level that is no string is "?".
func TestNoteOfBadParams(t *testing.T) {
	b := NewBook()
	for i, p := range []string{`[1,2]`, `{"level":7,"data":"x"}`, `{"level":"info","data":"x"`} {
		b.Note(&capture.Frame{Seq: uint64(i + 1), Dir: capture.In, Msg: &jsonrpc.Message{Method: mcp.MethodNotifyMessage, Params: json.RawMessage(p)}})
	}
	if b.Len() != 3 || b.At(0).Level != "?" || string(b.At(0).Data) != `[1,2]` || b.At(1).Level != "?" || string(b.At(1).Data) != `"x"` || b.At(2).Level != "?" {
		t.Fatalf("lines %+v %+v %+v", b.At(0), b.At(1), b.At(2))
	}
}

// noteBytes is how many bytes one Note of f allocates.
func noteBytes(b *Book, f *capture.Frame) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.Note(f)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestNoteOfAFloodLineCopiesOnly: in a flood a book reads nothing of a
// small log message but keeps a copy of its params, one allocation; At
// reads it when a view asks, and the line reads as it was sent.
func TestNoteOfAFloodLineCopiesOnly(t *testing.T) {
	b := NewBook()
	f := &capture.Frame{Seq: 1, Dir: capture.In, Msg: &jsonrpc.Message{JSONRPC: "2.0", Method: mcp.MethodNotifyMessage,
		Params: json.RawMessage(`{"level":"info","logger":"flo\u0077d","data":{"n":7}}`)}}
	for range MaxLines {
		b.Note(f)
	}
	if allocs := testing.AllocsPerRun(100, func() { b.Note(f) }); allocs > 1 {
		t.Errorf("Note of a flood line allocates %.0f times, want the copy of its params only", allocs)
	}
	if l := b.At(b.Len() - 1); l.Level != "info" || l.Logger != "flowd" || string(l.Data) != `{"n":7}` || l.Cut || l.Seq != 1 {
		t.Errorf("the line reads %+v", l)
	}
}
