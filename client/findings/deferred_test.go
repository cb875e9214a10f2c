package findings

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
)

// A detector told to DeferOver leaves the judgement of a tool result past
// the bound to its caller: Note reports nothing of it, and the Deferred,
// run later, reports what Note would have, with the same span; a result
// within the bound is judged in Note.
func TestDeferOverLeavesLargeResultsToCaller(t *testing.T) {
	d := NewDetector()
	d.DeferOver(64)
	frames := []*capture.Frame{
		line(capture.Out, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`),
		line(capture.In, `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"w","outputSchema":{"type":"object","required":["t"]}}]}}`),
		line(capture.Out, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"w"}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":2,"result":{"structuredContent":{"u":"`+strings.Repeat("x", 100)+`"}}}`),
		line(capture.Out, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"w"}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":3,"result":{"structuredContent":{"u":1}}}`),
	}
	var found []Finding
	for i, f := range frames {
		f.Seq = uint64(i + 1)
		found = append(found, d.Note(f)...)
	}
	if len(found) != 1 || found[0].Seq != 6 || found[0].Code != CodeStructuredInvalid {
		t.Fatalf("Note found %+v, want only the small result's", found)
	}
	later := d.TakeDeferred()
	if len(later) != 1 || later[0].Seq() != 4 || later[0].Size() <= 64 || len(d.TakeDeferred()) != 0 {
		t.Fatalf("deferred %d judgements, want the large result's once", len(later))
	}
	got := later[0].Run()
	if len(got) != 1 || got[0].Seq != 4 || got[0].Code != CodeStructuredInvalid || got[0].Path != "result.structuredContent" {
		t.Fatalf("the deferred judgement found %+v", got)
	}
	inline := NewDetector()
	var wantFound []Finding
	for _, f := range frames[:4] {
		wantFound = inline.Note(f)
	}
	if len(wantFound) != 1 || got[0] != wantFound[0] {
		t.Errorf("the deferred judgement found %+v, Note finds %+v", got, wantFound)
	}
}
