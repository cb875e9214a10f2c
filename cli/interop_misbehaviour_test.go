package cli

import (
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Servers that misbehave in ways the real peers never do, played by the
// stub server (stubserver_test.go, interop_stubmodes_test.go) through the
// whole CLI. Garbage on stdout is covered by TestE2EStubServerMisbehaviour
// ("noisy") and not repeated; a real server dying mid-request is in
// TestInteropGoSDKElicitation.

// TestInteropServerDiesMidRequest: the server reads tools/call and exits
// with status 7. mcpscope exits 3 and names the status and the server's
// last stderr lines; stdout stays empty.
func TestInteropServerDiesMidRequest(t *testing.T) {
	t.Parallel()
	argv, env := stubArgv(t, "crash")
	r := mcpscope(t, withTarget(argv, "call", "--env", env, "tools/call", `{"name":"anything"}`)...)
	r.mustExit(t, ExitConnection)
	want := "error: connection lost: server exited with status " + strconv.Itoa(crashExitStatus) +
		` while the session was open; last stderr: "stub: got tools/call" | ` + strconv.Quote(crashLastWords) + "\n"
	if r.stderr != want || r.stdout != "" {
		t.Errorf("stderr %q\nwant   %q\nstdout %q", r.stderr, want, r.stdout)
	}
}

// TestInteropGiantLineBoundedMemory: before answering tools/list the server
// writes a 2 GiB line. mcpscope warns about it with its true size, still
// lists the tools of the answer that follows, and its heap stays small the
// whole time. (Not parallel: the heap is sampled for the whole process.)
func TestInteropGiantLineBoundedMemory(t *testing.T) {
	argv, env := stubArgv(t, "giant")
	peak := sampleHeap()
	r := mcpscope(t, withTarget(argv, "tools", "--env", env)...)
	heapInuse := peak.stop()
	r.mustExit(t, ExitOK)
	if r.stdout != `{"tools":[{"name":"after-the-giant","inputSchema":{"type":"object"}}]}`+"\n" {
		t.Errorf("stdout %q", r.stdout)
	}
	want := "warning: the server wrote a line on stdout of " + strconv.Itoa(giantLineSize+1) + " bytes, over the 10485760-byte limit (--max-frame-size); it was dropped\n"
	if r.stderr != want {
		t.Errorf("stderr %q\nwant   %q", r.stderr, want)
	}
	t.Logf("peak HeapInuse while a 2 GiB line went by: %.1f MiB", float64(heapInuse)/(1<<20))
	if heapInuse >= 128<<20 {
		t.Errorf("peak HeapInuse %.1f MiB, want under 128 MiB", float64(heapInuse)/(1<<20))
	}
	if strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("more than one diagnostic: %q", r.stderr)
	}
}

// heapSampler records the peak HeapInuse of the process.
type heapSampler struct {
	done chan struct{}
	wg   sync.WaitGroup
	peak uint64
}

// sampleHeap starts sampling every 10 ms.
func sampleHeap() *heapSampler {
	runtime.GC()
	s := &heapSampler{done: make(chan struct{})}
	s.wg.Go(func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			s.peak = max(s.peak, ms.HeapInuse)
			select {
			case <-s.done:
				return
			case <-tick.C:
			}
		}
	})
	return s
}

// stop ends the sampling and returns the peak.
func (s *heapSampler) stop() uint64 {
	close(s.done)
	s.wg.Wait()
	return s.peak
}
