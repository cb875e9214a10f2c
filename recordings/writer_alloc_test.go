//go:build !race

// The race detector allocates on its own: counting allocations means
// nothing under it.

package recordings

import (
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Recording a message allocates nothing: its line is built and encoded in
// memory the Writer reuses, its bytes written as text without a copy.
func TestAppendAllocatesNothing(t *testing.T) {
	w, _ := NewWriter(io.Discard, Header{Proxy: "p"}, Options{SecretHeaders: []string{"Authorization"}})
	defer w.Close()
	raw := []byte(`{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"Echo: hi"}]}}` + "\n")
	m, err := jsonrpc.DecodeMessage(raw[:len(raw)-1])
	if err != nil {
		t.Fatal(err)
	}
	f := capture.Frame{Dir: capture.In, Raw: raw, Size: len(raw), Enc: proto.EncJSON, Msg: m, Fields: jsonrpc.LineFields(raw), Time: time.Now()}
	if n := testing.AllocsPerRun(1000, func() { w.Append(&f) }); n >= 1 {
		t.Errorf("%.1f allocations per message recorded, want none", n)
	}
}

// A flood that keeps the queue full reuses its memory from batch to batch:
// recording allocates a few dozen bytes per message at most (the encoder's
// pooled state after a collection), however long it runs.
func TestFullQueueIsReused(t *testing.T) {
	w, _ := NewWriter(io.Discard, Header{}, Options{})
	defer w.Close()
	raw := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":1}}` + "\n")
	m, err := jsonrpc.DecodeMessage(raw[:len(raw)-1])
	if err != nil {
		t.Fatal(err)
	}
	f := capture.Frame{Dir: capture.In, Raw: raw, Size: len(raw), Enc: proto.EncJSON, Msg: m, Time: time.Now()}
	for range 2 * maxQueued { // the queue and its spare at their size
		w.Append(&f)
	}
	const n = 8 * maxQueued
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		w.Append(&f)
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 256 {
		t.Errorf("%d bytes allocated per message recorded, want a few dozen at most (a queue grown afresh for each batch costs 600)", per)
	}
}
