package findings

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/schemacheck"
)

// Deferred is the judgement of a large tools/call result against its
// tool's outputSchema that a detector left to its caller (DeferOver), so
// that the caller can run it where it costs its reader nothing. It holds
// the frame it judges; RunWith may be called on any goroutine, once.
type Deferred struct {
	f      *capture.Frame
	seq    uint64
	t      *tool
	result json.RawMessage
	path   string
	shared bool // the outputSchema is past DeferOver: Compiled hands its compile
}

// Seq is the Seq of the frame judged.
func (d Deferred) Seq() uint64 { return d.seq }

// Size is how many bytes of result the judgement reads.
func (d Deferred) Size() int { return len(d.result) }

// Compiled is the outputSchema the judgement reads and, when it is past
// the bound DeferOver set, that schema compiled apart once for every
// judgement of its tool's results while its listing holds (nil
// otherwise): RunWith's compile may hand it for that schema rather than
// compile it again for each result.
func (d Deferred) Compiled() (json.RawMessage, func() (*schemacheck.Schema, error)) {
	if !d.shared {
		return d.t.schema, nil
	}
	return d.t.schema, d.t.apart
}

// Run judges the result where Note would have, with the tool's judge the
// detector holds (its outputSchema compiled once), and returns the
// findings Note would have returned for it: for a caller that finds no
// room to judge it apart. A judgement on another goroutine uses RunWith.
func (d Deferred) Run() []Finding {
	r := &report{f: d.f, seq: d.seq}
	judgeTool(r, d.t, d.result, d.path)
	return r.out
}

// RunWith is Run with the outputSchema compiled by compile: a caller that
// judges the same result otherwise too (its call's verdict, its report)
// hands one compile to every judgement, so that the schema is compiled
// once.
func (d Deferred) RunWith(compile func(json.RawMessage) (*schemacheck.Schema, error)) []Finding {
	r := &report{f: d.f, seq: d.seq}
	judgeTool(r, &tool{judge: client.ToolResultCheckerWith(d.t.name, d.t.schema, compile)}, d.result, d.path)
	return r.out
}

// DeferOver makes Note leave the judgement of a tool result of more than
// n bytes to its caller (Deferred) rather than judge it itself; 0, the
// default, judges every result in Note.
func (d *Detector) DeferOver(n int) { d.deferOver = n }

// TakeDeferred returns the judgements Note left since the last call, in
// the order of their frames, and forgets them.
func (d *Detector) TakeDeferred() []Deferred {
	out := d.deferred
	d.deferred = nil
	return out
}
