//go:build linux

package sse

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// streamSize is the body BenchmarkParse reads: ~64 KiB events.
const streamSize = 256 << 20

// benchData is the data of benchEvent: a JSON-RPC message on one data line,
// as MCP servers send them.
var benchData = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"text\":\"" + strings.Repeat("0123456789abcdef", 4090) + "\"}}"

// benchEvent is one ~64 KiB event.
var benchEvent = "event: message\nid: 42\ndata: " + benchData + "\n\n"

// source serves n bytes of repeated events with no WriteTo, like any
// network body.
func source() io.Reader { return io.LimitReader(&repeat{s: benchEvent}, streamSize) }

// bareLineBuffer is the buffer of the bare reader: large enough that no
// line of the stream is split, so it never takes the slow path.
const bareLineBuffer = 1 << 20

// bareLines is a bare reader of BenchmarkParse: it scans the lines of src
// with a bufio.Reader and ReadSlice('\n') and counts them; with cr, it also
// ends lines at each CR, as an event stream's lines end.
func bareLines(src io.Reader, cr bool) (int, error) {
	br := bufio.NewReaderSize(src, bareLineBuffer)
	lines := 0
	for {
		line, err := br.ReadSlice('\n')
		for cr {
			i := bytes.IndexByte(line, '\r')
			if i < 0 {
				break
			}
			lines++
			line = line[i+1:]
		}
		switch {
		case err == nil:
			lines++
		case errors.Is(err, io.EOF):
			return lines, nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return lines, err
		}
	}
}

// BenchmarkParse reads a 256 MiB event stream of ~64 KiB events and reports
// its throughput against bare readers of the same bytes from the same
// source, measured in the same run, in turn.
//
// "x-bare-reader" is the bare reader's time over the parser's (target
// ≥ 0.9). The bare reader is the least work any reader of an event stream
// does: bring the bytes into memory and find the line ends as the format
// defines them, at LF and at CR — a bufio.Reader of 1 MiB scanning lines
// with ReadSlice('\n'), then each line for a CR with bytes.IndexByte.
// io.Copy to io.Discard is no baseline: it never looks at the bytes, and
// a source that serves them from the cache makes it a bare memmove that
// no reader which reads its input can match. The parser does what the bare
// reader does and more: it splits the fields, tracks ids, checks the
// limits and keeps each event whole in its buffer so that Raw and
// DataBytes cost no copy.
//
// "x-lf-lines" is the same ratio against ReadSlice('\n') alone, which
// does not end lines at CR: the parser makes one pass of bytes.IndexByte
// for LF and one for CR, both vectorised by the runtime.
//
// The readers run on one OS thread, timed by its CPU time (user and
// system): on a shared machine, wall time also counts the time the thread
// waited for a core, which says nothing of either reader. Each iteration
// starts with the next reader in turn, so that none always runs first. The
// MB/s figures use CPU time; "x-bare-reader-wall" is the first ratio in
// wall time.
//
// "parse-B/op" and "parse-allocs/op" are what the parser allocates per
// 256 MiB: its memory stays bounded whatever the stream's length.
func BenchmarkParse(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.SetBytes(streamSize)
	var parse, bare, lfLines timed
	var allocBytes, allocs uint64
	var before, after runtime.MemStats
	minLines := 3 * (streamSize / len(benchEvent))
	readers := []func(){
		func() {
			bare.run(b, func() {
				if lines, err := bareLines(source(), true); err != nil || lines < minLines {
					b.Fatalf("bare reader: %d lines, %v", lines, err)
				}
			})
		},
		func() {
			lfLines.run(b, func() {
				if lines, err := bareLines(source(), false); err != nil || lines < minLines {
					b.Fatalf("LF lines: %d lines, %v", lines, err)
				}
			})
		},
		func() {
			runtime.ReadMemStats(&before)
			parse.run(b, func() {
				if events, err := parseAll(source()); err != nil || events < streamSize/len(benchEvent) {
					b.Fatalf("parser: %d events, %v", events, err)
				}
			})
			runtime.ReadMemStats(&after)
			allocBytes += after.TotalAlloc - before.TotalAlloc
			allocs += after.Mallocs - before.Mallocs
		},
	}
	for turn := 0; b.Loop(); turn++ {
		for i := range readers {
			readers[(turn+i)%len(readers)]()
		}
	}
	mb := float64(streamSize) * float64(b.N) / 1e6
	b.ReportMetric(bare.cpu.Seconds()/parse.cpu.Seconds(), "x-bare-reader")
	b.ReportMetric(lfLines.cpu.Seconds()/parse.cpu.Seconds(), "x-lf-lines")
	b.ReportMetric(bare.wall.Seconds()/parse.wall.Seconds(), "x-bare-reader-wall")
	b.ReportMetric(mb/bare.cpu.Seconds(), "bare-MB/s")
	b.ReportMetric(mb/lfLines.cpu.Seconds(), "lf-lines-MB/s")
	b.ReportMetric(mb/parse.cpu.Seconds(), "parse-MB/s")
	b.ReportMetric(float64(allocBytes)/float64(b.N), "parse-B/op")
	b.ReportMetric(float64(allocs)/float64(b.N), "parse-allocs/op")
}

// timed adds up the CPU time of the calling thread and the wall time of
// runs.
type timed struct{ cpu, wall time.Duration }

// run runs f and adds its times.
func (t *timed) run(b *testing.B, f func()) {
	cpu, wall := threadCPU(b), time.Now()
	f()
	t.cpu += threadCPU(b) - cpu
	t.wall += time.Since(wall)
}

// threadCPU is the CPU time the calling OS thread has used.
func threadCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// parseAll reads every event of src, checking each one's data and raw
// size, and counts them. The stream ends in a cut event.
func parseAll(src io.Reader) (int, error) {
	r := NewReader(src, Limits{})
	events := 0
	for {
		ev, err := r.Next()
		if err != nil {
			var cut *CutError
			if errors.As(err, &cut) {
				return events, nil
			}
			return events, err
		}
		if len(ev.DataBytes) != len(benchData) || len(ev.Raw) != len(benchEvent) || ev.ID != "42" {
			return events, errors.New("wrong event")
		}
		events++
	}
}
