package findings

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/schemacheck"
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

// countCompiles counts the compilations of outputSchemas, by Note's judge
// and apart, until the test ends.
func countCompiles(t *testing.T) *atomic.Int32 {
	var n atomic.Int32
	saved, savedApart := compileSchema, compileApart
	t.Cleanup(func() { compileSchema, compileApart = saved, savedApart })
	compileSchema = func(s json.RawMessage) (*schemacheck.Schema, error) { n.Add(1); return saved(s) }
	compileApart = func(s json.RawMessage) (*schemacheck.Schema, error) { n.Add(1); return savedApart(s) }
	return &n
}

// A small result of a tool whose outputSchema is past the DeferOver bound
// is left to the caller too, so that Note never compiles that schema; the
// judgements of its results share one compile of it (Compiled), made
// when the first runs.
func TestDeferOverLeavesLargeSchemasToCaller(t *testing.T) {
	compiles := countCompiles(t)
	d := NewDetector()
	d.DeferOver(64)
	schema := `{"type":"object","required":["t"],"properties":{"t":{"type":"string","maxLength":64}}}`
	frames := []*capture.Frame{
		line(capture.Out, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`),
		line(capture.In, `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"w","outputSchema":`+schema+`}]}}`),
		line(capture.Out, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"w"}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":2,"result":{"structuredContent":{"u":1}}}`),
		line(capture.Out, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"w"}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":3,"result":{"structuredContent":{"t":"x"}}}`),
	}
	for i, f := range frames {
		f.Seq = uint64(i + 1)
		if found := d.Note(f); len(found) != 0 {
			t.Fatalf("Note found %+v in frame %d", found, f.Seq)
		}
	}
	if n := compiles.Load(); n != 0 {
		t.Fatalf("Note compiled the schema %d times", n)
	}
	later := d.TakeDeferred()
	if len(later) != 2 || later[0].Seq() != 4 || later[1].Seq() != 6 {
		t.Fatalf("deferred %d judgements, want those of frames 4 and 6", len(later))
	}
	var found []Finding
	for _, x := range later {
		text, compiled := x.Compiled()
		if string(text) != schema || compiled == nil {
			t.Fatalf("frame %d: Compiled gave %q (compile %v)", x.Seq(), text, compiled != nil)
		}
		found = append(found, x.RunWith(func(json.RawMessage) (*schemacheck.Schema, error) { return compiled() })...)
	}
	if len(found) != 1 || found[0].Seq != 4 || found[0].Code != CodeStructuredInvalid {
		t.Errorf("the deferred judgements found %+v", found)
	}
	if n := compiles.Load(); n != 1 {
		t.Errorf("the judgements of 2 results compiled the schema %d times", n)
	}
}
