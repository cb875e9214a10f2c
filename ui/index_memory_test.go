package ui

import (
	"bytes"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// liveHeap returns the live heap after a full collection.
func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// floodFrames returns a source of realistic frames as transports capture
// them: requests with their results, errors, notifications, progress
// datagrams and stderr lines in turn, each with fresh wire bytes,
// annotations and decoded message (copies of six encoded templates, so
// that filling a store is quick).
func floodFrames(t testing.TB) func(i int) *capture.Frame {
	at := t0
	templates := []*capture.Frame{
		controlFrame(t, capture.Out, at, proto.EncJSON, request(t, 7, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "call"}})),
		controlFrame(t, capture.In, at, proto.EncCBOR, result(t, 7, map[string]any{"content": []any{map[string]any{"type": "text", "text": "answer"}}})),
		controlFrame(t, capture.In, at, proto.EncJSON, notification(t, "notifications/message", map[string]any{"level": "info", "data": "flood line"})),
		datagramFrame(t, at, flow.ChannelProgress, 7, encode(t, proto.EncCBOR, flow.ProgressDatagram{Progress: 1, Total: 2}), proto.EncCBOR),
		stderrFrame(at, "server log line on stderr"),
		controlFrame(t, capture.In, at, proto.EncJSON, &jsonrpc.Message{JSONRPC: jsonrpc.Version, ID: ptr(jsonrpc.IntID(7)), Error: &jsonrpc.Error{Code: -32602, Message: "invalid params"}}),
	}
	return func(i int) *capture.Frame {
		f := *templates[i%len(templates)]
		f.Time = at.Add(time.Duration(i) * time.Microsecond)
		f.Raw = bytes.Clone(f.Raw)
		f.Fields = slices.Clone(f.Fields)
		if m := f.Msg; m != nil {
			c := *m
			c.JSONRPC, c.Method = strings.Clone(m.JSONRPC), strings.Clone(m.Method)
			c.Params, c.Result = bytes.Clone(m.Params), bytes.Clone(m.Result)
			if m.ID != nil {
				c.ID = ptr(jsonrpc.IntID(int64(i / len(templates))))
			}
			if m.Error != nil {
				c.Error = &jsonrpc.Error{Code: m.Error.Code, Message: strings.Clone(m.Error.Message)}
			}
			c.Raw = nil
			f.Msg = &c
		}
		if f.Chan.Kind == capture.Datagram {
			f.Chan.ReqID = uint32(i / len(templates))
		}
		return &f
	}
}

func ptr[T any](v T) *T { return &v }

// The TUI's store filled to its caps with realistic frames, decoded
// messages and the index that reads them included, stays within the
// documented bound after a collection: the store's MemoryBound plus the
// index's own bound. It reports what a held frame costs.
func TestTUIHeapWithinBoundAtTheCaps(t *testing.T) {
	cfg := capture.Config{MaxFrames: 200_000, MaxBytes: 8 << 20, MaxStreams: 1, StreamHead: 1, StreamTail: 1}
	base := liveHeap()
	st := capture.NewStore(cfg)
	m := newTestModel(t, st, 200, 60)
	floodPeak(t, m, 2*cfg.MaxFrames)
	got := liveHeap() - base
	s := st.Stats()
	bound := st.Config().MemoryBound() + indexMemoryBound
	t.Logf("%d frames held (%d evicted): heap %.1f MiB, %.0f B/frame; the store accounts %.0f B/frame; bound %d MiB",
		s.Frames, s.Evicted, float64(got)/(1<<20), float64(got)/float64(s.Frames),
		float64(s.RawBytes+s.DecodedBytes+s.MetaBytes)/float64(s.Frames), bound>>20)
	if got > bound {
		t.Fatalf("the heap grew by %.1f MiB, over the documented bound of %.1f MiB", float64(got)/(1<<20), float64(bound)/(1<<20))
	}
	runtime.KeepAlive(m)
}

// BenchmarkTUIHeapAtDefaultCaps fills a store at the TUI's default bounds
// with twice as many realistic frames as it holds, the index reading them,
// under the TUI's memory limit (LimitResident), and reports the live heap
// after a collection, what a held frame costs, the heap the runtime took
// from the system, the most it held at once and the documented bound.
func BenchmarkTUIHeapAtDefaultCaps(b *testing.B) {
	for range b.N {
		base := liveHeap()
		st := capture.NewStore(capture.Config{})
		restore := LimitResident(st)
		m := newTestModel(b, st, 200, 60)
		peak := floodPeak(b, m, 2*st.Config().MaxFrames)
		restore()
		got := liveHeap() - base
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		s := st.Stats()
		b.ReportMetric(float64(got)/(1<<20), "live-MiB")
		b.ReportMetric(float64(got)/float64(s.Frames), "B/frame")
		b.ReportMetric(float64(s.Frames), "frames")
		b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heap-sys-MiB")
		b.ReportMetric(float64(peak)/(1<<20), "peak-resident-MiB")
		b.ReportMetric(float64(st.Config().MemoryBound()+indexMemoryBound)/(1<<20), "bound-MiB")
		runtime.KeepAlive(m)
	}
}
