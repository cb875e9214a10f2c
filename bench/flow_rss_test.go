//go:build linux

package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
)

// Process costs read from the kernel (Linux): the CPU time of this process
// and the peak RSS of a separate mcpscope process.

// processCPU returns the user+system CPU time of this process so far.
func processCPU(b *testing.B) time.Duration { return rusageCPU(b, syscall.RUSAGE_SELF) }

// rusageCPU returns the user+system CPU time getrusage reports for who.
func rusageCPU(b *testing.B, who int) time.Duration {
	b.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// processCPUOf returns the user+system CPU time of process pid so far, all
// its threads, from /proc/PID/stat (in clock ticks of 1/100 s).
func processCPUOf(b *testing.B, pid int) time.Duration {
	b.Helper()
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatalf("the CPU time of process %d: %v", pid, err)
	}
	// The command name, field 2, is in parentheses and may hold spaces and
	// parentheses: utime and stime are fields 14 and 15, the 12th and 13th
	// after its last ')'.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(fields) < 13 {
		b.Fatalf("the CPU time of process %d: /proc/%d/stat has %d fields", pid, pid, len(fields))
	}
	var ticks int64
	for _, f := range fields[11:13] {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			b.Fatalf("the CPU time of process %d: %v", pid, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / userHZ
}

// userHZ is the clock tick of /proc's CPU times (USER_HZ).
const userHZ = 100

// cliPeakRSS runs `mcpscope call … read_file` against srv as a separate
// process, saving the payload under a temporary folder, and returns the
// child's peak RSS in bytes.
func cliPeakRSS(b *testing.B, srv *flowtest.Demo) uint64 {
	b.Helper()
	return childPeakRSS(b, buildMcpscope(b), readFileSize, func(out string) []string {
		return []string{"call", "--cert-hash", srv.CertHash(), "--stream-out", out,
			"--timeout", flowHangGuard.String(), "tools/call", string(readFileParams()), srv.Target()}
	})
}

// childPeakRSS runs bin, an mcpscope binary, with the arguments args(DIR)
// as a separate process, which must save one stream of size bytes under
// DIR (a temporary folder) as *.bin, and returns the child's peak RSS in
// bytes, sampled from /proc/PID/status (VmHWM).
func childPeakRSS(b *testing.B, bin string, size int64, args func(out string) []string) uint64 {
	b.Helper()
	out := b.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), flowHangGuard)
	defer cancel()
	argv := args(out)
	cmd := exec.CommandContext(ctx, bin, argv...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		b.Fatalf("mcpscope %s: %v", argv[0], err)
	}
	vmHWM := sampleVmHWM(cmd.Process.Pid)
	err := cmd.Wait()
	peak := vmHWM()
	if err != nil {
		b.Fatalf("mcpscope %s: %v\n%s", argv[0], err, stderr.String())
	}
	saved, err := filepath.Glob(filepath.Join(out, "*.bin"))
	if err != nil || len(saved) != 1 {
		b.Fatalf("mcpscope %s saved %v (%v), want one stream file", argv[0], saved, err)
	}
	fi, err := os.Stat(saved[0])
	if err != nil {
		b.Fatalf("mcpscope %s: %v", argv[0], err)
	}
	if fi.Size() != size {
		b.Fatalf("mcpscope %s saved %d bytes, want %d", argv[0], fi.Size(), size)
	}
	if err := os.Remove(saved[0]); err != nil {
		b.Errorf("removing the saved stream: %v", err)
	}
	if peak == 0 {
		b.Fatalf("no VmHWM sample of the mcpscope process (is /proc mounted?)")
	}
	return peak
}

// sampleVmHWM polls the VmHWM (peak RSS) of process pid until done is
// called, which returns the highest value seen, in bytes (0: none).
func sampleVmHWM(pid int) (done func() uint64) {
	path := fmt.Sprintf("/proc/%d/status", pid)
	var peak uint64
	stop := poll(10*time.Millisecond, func() {
		if v, ok := readVmHWM(path); ok {
			peak = max(peak, v)
		}
	})
	return func() uint64 {
		stop()
		return peak
	}
}

// readVmHWM reads the VmHWM line of a /proc status file, in bytes.
func readVmHWM(path string) (uint64, bool) { return readStatusBytes(path, "VmHWM:") }

// readStatusBytes reads the line of a /proc status file that starts with
// key (a size in kB), in bytes.
func readStatusBytes(path, key string) (uint64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), key)
		if !ok {
			continue
		}
		kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		return kb << 10, err == nil
	}
	return 0, false
}
