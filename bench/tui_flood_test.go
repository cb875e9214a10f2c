//go:build linux

package bench

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// floodEvictions is how many frames the TUI drops under the flood before
// its memory is read: many times what its store holds, so that what is
// resident has levelled off.
const floodEvictions = 4_000_000

// Counts of frames on the TUI's screen: those the status bar says were
// evicted, and those the traffic pane's title says are held.
var (
	evictedFrames = regexp.MustCompile(`(\d+) frames evicted`)
	heldFrames    = regexp.MustCompile(`Traffic · (\d+) frames`)
)

// BenchmarkTUIResidentUnderFlood runs the real binary's TUI in tmux against
// a stdio server that floods notifications/message lines without end (this
// test binary, floodServe), until the store has dropped floodEvictions
// frames, and reports the process's peak and final resident memory (VmHWM,
// VmRSS) and its CPU time a frame: under the TUI's own memory limit, and
// with the limit turned off (GOMEMLIMIT=off), in turn.
func BenchmarkTUIResidentUnderFlood(b *testing.B) {
	if _, err := exec.LookPath("tmux"); err != nil {
		b.Skip("tmux is not installed")
	}
	bin := buildMcpscope(b)
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	var limited, unlimited floodRun
	b.ResetTimer()
	for run := range b.N {
		inTurn(run, func() { limited = runFloodedTUI(b, bin, self, "") }, func() { unlimited = runFloodedTUI(b, bin, self, "off") })
	}
	b.StopTimer()
	b.ReportMetric(float64(limited.peak)/(1<<20), "hwm-MiB")
	b.ReportMetric(float64(limited.rss)/(1<<20), "rss-MiB")
	b.ReportMetric(limited.cpuPerFrame, "cpu-ns/frame")
	b.ReportMetric(float64(unlimited.peak)/(1<<20), "nolimit-hwm-MiB")
	b.ReportMetric(float64(unlimited.rss)/(1<<20), "nolimit-rss-MiB")
	b.ReportMetric(unlimited.cpuPerFrame, "nolimit-cpu-ns/frame")
	b.ReportMetric(float64(limited.peak)/float64(unlimited.peak), "hwm-ratio")
}

// floodRun is what one flooded TUI measured.
type floodRun struct {
	peak, rss   uint64  // VmHWM and VmRSS at the end, bytes
	cpuPerFrame float64 // CPU time of the process over the frames it read (evicted and held), ns
}

// runFloodedTUI runs bin's TUI in a tmux session of its own against self as
// a flood server, with GOMEMLIMIT set to memLimit unless it is "", until
// floodEvictions frames were evicted, and then quits it.
func runFloodedTUI(b *testing.B, bin, self, memLimit string) floodRun {
	b.Helper()
	name := fmt.Sprintf("mcpscope-flood-%d-%s", os.Getpid(), memLimit)
	tmux := tmuxOn(b, name)
	env := "env -u GOMEMLIMIT"
	if memLimit != "" {
		env = "env GOMEMLIMIT=" + memLimit
	}
	tmux("new-session", "-d", "-s", name, "-x", "170", "-y", "50",
		fmt.Sprintf("exec %s %q --no-record --env %s=1 -- %q", env, bin, floodServerEnv, self))
	defer tmux("kill-server")
	pid := panePID(b, tmux, name)
	deadline := time.Now().Add(flowHangGuard)
	evicted, held := 0, 0
	for evicted < floodEvictions {
		if time.Now().After(deadline) {
			b.Fatalf("the TUI evicted %d frames in %s, waiting for %d", evicted, flowHangGuard, floodEvictions)
		}
		time.Sleep(500 * time.Millisecond)
		screen := tmux("capture-pane", "-p", "-t", name)
		if m := evictedFrames.FindStringSubmatch(screen); m != nil {
			evicted, _ = strconv.Atoi(m[1])
		}
		if m := heldFrames.FindStringSubmatch(screen); m != nil {
			held, _ = strconv.Atoi(m[1])
		}
	}
	status := fmt.Sprintf("/proc/%d/status", pid)
	var r floodRun
	r.peak, _ = readVmHWM(status)
	r.rss, _ = readStatusBytes(status, "VmRSS:")
	r.cpuPerFrame = float64(processCPUOf(b, pid)) / float64(evicted+held)
	tmux("send-keys", "-t", name, "q")
	return r
}
