//go:build unix

package stdio

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// memPeak samples the heap while a test runs.
type memPeak struct {
	stop               chan struct{}
	wg                 sync.WaitGroup
	heapInuse, sys     uint64
	baseInuse, baseSys uint64
}

func watchMemory() *memPeak {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	p := &memPeak{stop: make(chan struct{}), baseInuse: ms.HeapInuse, baseSys: ms.Sys}
	p.wg.Go(func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			p.heapInuse = max(p.heapInuse, ms.HeapInuse)
			p.sys = max(p.sys, ms.Sys)
			select {
			case <-p.stop:
				return
			case <-tick.C:
			}
		}
	})
	return p
}

func (p *memPeak) done() { close(p.stop); p.wg.Wait() }

func TestTwoGiBLineIsDroppedWithBoundedMemory(t *testing.T) {
	tr, rec, inbox := startFake(t, "bigline", nil)
	mem := watchMemory()
	send(t, tr, request(t, 7, "ping", map[string]string{"after": "the big line"}))
	// The answer comes once the whole 2 GiB line has been read past: under
	// the race detector on a loaded machine that took 12.5 s, so the wait
	// is the whole run's guard rather than one message's.
	var got *jsonrpc.Message
	select {
	case got = <-inbox:
	case <-time.After(guard.Run):
		t.Fatalf("no message was delivered within %s of the 2 GiB line", guard.Run)
	}
	mem.done()

	if id, _ := got.ID.Int(); id != 7 || string(got.Result) != `{"echo":{"after":"the big line"}}` {
		t.Fatalf("message after the big line = %s", got.Raw)
	}
	in := rec.all(isDir(capture.In, capture.Control))
	if len(in) != 2 {
		t.Fatalf("%d incoming frames, want the big line and the response", len(in))
	}
	big := in[0]
	var tooLong *LineTooLongError
	if !errors.As(big.Err, &tooLong) || tooLong.Size != bigLineSize+1 || tooLong.Max != DefaultMaxFrameSize {
		t.Fatalf("big line Err = %v", big.Err)
	}
	if big.Size != clampInt(bigLineSize+1) || len(big.Raw) != keptHead || big.Kept != keptHead || strings.Trim(string(big.Raw), "a") != "" || big.Msg != nil {
		t.Fatalf("big line frame: Size %d, Raw %d bytes, Kept %d", big.Size, len(big.Raw), big.Kept)
	}
	t.Logf("2 GiB line: HeapInuse baseline %.1f MiB, peak %.1f MiB; Sys baseline %.1f MiB, peak %.1f MiB",
		mib(mem.baseInuse), mib(mem.heapInuse), mib(mem.baseSys), mib(mem.sys))
	if mem.heapInuse > 64<<20 || mem.sys > 128<<20 {
		t.Fatalf("memory grew with the line: peak HeapInuse %.1f MiB, Sys %.1f MiB", mib(mem.heapInuse), mib(mem.sys))
	}
	if tr.Err() != nil {
		t.Fatalf("Err = %v", tr.Err())
	}
}

func mib(n uint64) float64 { return float64(n) / (1 << 20) }
