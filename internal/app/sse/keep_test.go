package sse

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// keptStream is a stream of events of every size a Reader told
// KeepEvents handles differently, with their data: small ones it copies,
// large ones it hands over in its buffer, data joined from several lines,
// an event past MaxRaw (keepLimits) whose head it keeps, CR LF line ends.
func keptStream() (stream string, datas []string) {
	var b strings.Builder
	for i := range 120 {
		fill := strings.Repeat(string(rune('a'+i%26)), []int{90, 20 << 10, 64<<10 - 300, 150 << 10, 3000}[i%5])
		data := fmt.Sprintf(`{"n":%d,"text":"%s"}`, i, fill)
		switch {
		case i%17 == 3: // joined from two lines
			half := len(data) / 2
			fmt.Fprintf(&b, "id: %d\ndata: %s\ndata: %s\n\n", i, data[:half], data[half:])
			data = data[:half] + "\n" + data[half:]
		case i%23 == 5: // CR LF
			fmt.Fprintf(&b, "event: message\r\nid: %d\r\ndata: %s\r\n\r\n", i, data)
		case i == 60: // past MaxRaw
			data = strings.Repeat("z", 600<<10)
			fmt.Fprintf(&b, "id: %d\ndata: %s\n\n", i, data)
		default:
			fmt.Fprintf(&b, "event: message\nid: %d\ndata: %s\n\n", i, data)
		}
		datas = append(datas, data)
	}
	return b.String(), datas
}

// keepLimits cut the Raw of keptStream's largest event.
var keepLimits = Limits{MaxRaw: 512 << 10}

// A Reader told KeepEvents never writes again what an event it returned
// holds: read in pieces that cross events, every event kept to the end
// still has its own bytes and data, and large events came in the buffer
// they were read into, with no copy (two in a row lie side by side).
func TestKeepEventsOutliveLaterReads(t *testing.T) {
	stream, datas := keptStream()
	for _, n := range []int{1000, 7 << 10, 100 << 10} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			rd := NewReader(&chunked{s: stream, n: n}, keepLimits)
			rd.KeepEvents()
			var kept []Event
			for {
				ev, err := rd.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				kept = append(kept, ev)
			}
			if len(kept) != len(datas) {
				t.Fatalf("%d events, want %d", len(kept), len(datas))
			}
			adjacent := 0
			for i, ev := range kept {
				whole := stream[ev.Offset : ev.Offset+ev.Length]
				if string(ev.DataBytes) != datas[i] || !strings.HasPrefix(whole, string(ev.Raw)) || (!ev.RawCut && len(ev.Raw) != len(whole)) {
					t.Fatalf("event %d was overwritten: data %.40q…, raw %.40q…", i, ev.DataBytes, ev.Raw)
				}
				if i > 0 && sideBySide(kept[i-1], ev) {
					adjacent++
				}
			}
			if adjacent == 0 {
				t.Fatalf("no two large events lie side by side: every event was copied")
			}
		})
	}
}

// sideBySide reports whether b's bytes start where a's end, in one buffer.
func sideBySide(a, b Event) bool {
	if len(a.Raw) == 0 || len(b.Raw) == 0 || a.RawCut || a.Offset+a.Length != b.Offset {
		return false
	}
	return uintptr(unsafe.Pointer(unsafe.SliceData(a.Raw)))+uintptr(len(a.Raw)) == uintptr(unsafe.Pointer(unsafe.SliceData(b.Raw)))
}

// Kept events keep alive no more than a few times their own bytes: with
// one large event of every 64 kept out of 64 MiB, the heap holds about
// what they hold, not the stream's buffers.
func TestKeepEventsBoundedBuffers(t *testing.T) {
	base := heapInUse()
	rd := NewReader(io.LimitReader(&repeat{s: benchEvent}, int64((64<<20)/len(benchEvent)*len(benchEvent))), Limits{})
	rd.KeepEvents()
	var kept []Event
	var keptBytes int
	for i := 0; ; i++ {
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if i%64 == 0 {
			kept = append(kept, ev)
			keptBytes += len(ev.Raw)
		}
	}
	rd = nil
	held := heapInUse() - base
	t.Logf("%d events kept, %d KiB; heap grew by %d KiB", len(kept), keptBytes>>10, held>>10)
	if held > int64(lendShare*keptBytes)+1<<20 {
		t.Fatalf("%d kept events of %d KiB hold %d KiB of heap", len(kept), keptBytes>>10, held>>10)
	}
	runtime.KeepAlive(kept)
}

// heapInUse is the heap in use after a collection.
func heapInUse() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapInuse)
}
