//go:build linux

package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// firstAnswerStarts is how many times each run of BenchmarkTUIFirstAnswer
// starts the TUI.
const firstAnswerStarts = 5

// firstAnswerPoll is the pause between two reads of the TUI's screen: the
// figures are that much coarser, and the reader leaves the TUI the CPU.
const firstAnswerPoll = 5 * time.Millisecond

// What the TUI's screen shows at each step of its start.
const (
	screenDrawn     = " mcpscope "          // the tab bar: the first screen
	screenConnected = "MCP connected"       // the status line, after the server's first answer
	screenToolsList = "result · tools/list" // the traffic pane: the answer to t
)

// BenchmarkTUIFirstAnswer runs the real binary's TUI in tmux against the
// official Go SDK's everything server on stdio, recording on as by
// default, firstAnswerStarts times a run, and reports the medians over the
// starts of the time from the TUI's start to:
//
//   - "first-screen-ms": its first screen drawn;
//   - "first-answer-ms": the server's first answer on screen (the status
//     line says "MCP connected"; target ≤ 150);
//   - "tools-list-ms": the answer to tools/list on screen, the key t sent
//     as soon as it is connected ("max-tools-list-ms" the slowest start);
//
// and the peak resident memory (VmHWM) once the tools are listed:
// "tui-hwm-MiB", "server-hwm-MiB" and "hwm-MiB", the TUI with its server
// (target ≤ 50). The screen is read every firstAnswerPoll and a read
// takes a few milliseconds of its own: each time is that much too long
// at most.
func BenchmarkTUIFirstAnswer(b *testing.B) {
	if _, err := exec.LookPath("tmux"); err != nil {
		b.Skip("tmux is not installed")
	}
	bin := buildMcpscope(b)
	server := peertest.GoSDKEverything(b)[0]
	var starts []tuiStart
	for b.Loop() {
		for range firstAnswerStarts {
			starts = append(starts, startTUI(b, bin, server, len(starts)))
		}
	}
	pick := func(f func(tuiStart) float64) []float64 {
		out := make([]float64, len(starts))
		for i, s := range starts {
			out[i] = f(s)
		}
		return out
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }
	toolsList := pick(func(s tuiStart) float64 { return ms(s.toolsList) })
	b.ReportMetric(median(pick(func(s tuiStart) float64 { return ms(s.screen) })), "first-screen-ms")
	b.ReportMetric(median(pick(func(s tuiStart) float64 { return ms(s.answer) })), "first-answer-ms")
	b.ReportMetric(median(toolsList), "tools-list-ms")
	b.ReportMetric(slices.Max(toolsList), "max-tools-list-ms")
	b.ReportMetric(median(pick(func(s tuiStart) float64 { return mib(s.tuiHWM) })), "tui-hwm-MiB")
	b.ReportMetric(median(pick(func(s tuiStart) float64 { return mib(s.serverHWM) })), "server-hwm-MiB")
	b.ReportMetric(median(pick(func(s tuiStart) float64 { return mib(s.tuiHWM + s.serverHWM) })), "hwm-MiB")
}

// tuiStart is what one start of the TUI measured.
type tuiStart struct {
	screen, answer, toolsList time.Duration // from the start to each step on screen
	tuiHWM, serverHWM         uint64        // VmHWM of the TUI and of its server, bytes
}

// startTUI starts bin's TUI against server in a tmux session of its own,
// numbered n, times its steps, reads its memory and the server's, and
// quits it. The pane's shell waits for a line before it becomes the TUI,
// so that the clock starts with the TUI's own process, not with tmux's.
func startTUI(b *testing.B, bin, server string, n int) tuiStart {
	b.Helper()
	name := fmt.Sprintf("mcpscope-first-%d-%d", os.Getpid(), n) // a tmux server of its own, never one still going away
	tmux := tmuxOn(b, name)
	state := filepath.Join(b.TempDir(), "state")
	tmux("new-session", "-d", "-s", name, "-x", "160", "-y", "45",
		fmt.Sprintf("read _ && exec env XDG_STATE_HOME=%q %q -- %q", state, bin, server))
	defer tmux("kill-server")
	pid := panePID(b, tmux, name)
	tmux("send-keys", "-t", name, "Enter")
	start := time.Now() // the line is in the pane: its shell becomes the TUI now
	var s tuiStart
	deadline := start.Add(guard.Hang)
	for s.toolsList == 0 {
		if time.Now().After(deadline) {
			b.Fatalf("the TUI did not list the tools in %s; its screen:\n%s", guard.Hang, tmux("capture-pane", "-p", "-t", name))
		}
		screen := tmux("capture-pane", "-p", "-t", name)
		at := time.Since(start)
		if s.screen == 0 && strings.Contains(screen, screenDrawn) {
			s.screen = at
		}
		if s.answer == 0 && strings.Contains(screen, screenConnected) {
			s.answer = at
			tmux("send-keys", "-t", name, "t")
		}
		if s.answer != 0 && strings.Contains(screen, screenToolsList) {
			s.toolsList = at
			break
		}
		time.Sleep(firstAnswerPoll)
	}
	s.tuiHWM, _ = readVmHWM(fmt.Sprintf("/proc/%d/status", pid))
	for _, child := range childrenOf(pid) {
		hwm, _ := readVmHWM(fmt.Sprintf("/proc/%d/status", child))
		s.serverHWM += hwm
	}
	if s.serverHWM == 0 {
		b.Fatalf("the TUI (process %d) has no server process to measure", pid)
	}
	tmux("send-keys", "-t", name, "q")
	return s
}

// tmuxOn returns a runner of tmux commands on the tmux server of its own
// named name; each command is bounded by flowHangGuard and fails b, but
// for kill-server (the server may be gone already).
func tmuxOn(b *testing.B, name string) func(args ...string) string {
	return func(args ...string) string {
		ctx, cancel := context.WithTimeout(context.Background(), flowHangGuard)
		defer cancel()
		cmd := exec.CommandContext(ctx, "tmux", append([]string{"-L", name}, args...)...)
		cmd.Env = append(os.Environ(), "TMUX=")
		out, err := cmd.CombinedOutput()
		if err != nil && args[0] != "kill-server" {
			b.Fatalf("tmux %s: %v\n%s", args[0], err, out)
		}
		return string(out)
	}
}

// panePID returns the process id of the program in tmux session name's
// pane.
func panePID(b *testing.B, tmux func(args ...string) string, name string) int {
	b.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(tmux("list-panes", "-t", name, "-F", "#{pane_pid}")))
	if err != nil {
		b.Fatalf("the TUI's process id: %v", err)
	}
	return pid
}

// childrenOf returns the process ids of pid's children, from each of its
// threads' children lists.
func childrenOf(pid int) []int {
	lists, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	var out []int
	for _, l := range lists {
		data, err := os.ReadFile(l)
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(data)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}
