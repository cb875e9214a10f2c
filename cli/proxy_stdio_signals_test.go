//go:build linux

package cli

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// stubbornServer is a server that says "ready PID" on stderr and then
// neither reads its stdin nor exits on its own.
var stubbornServer = []string{"sh", "-c", `echo "ready $$" >&2; exec sleep 600`}

// stubbornProxy starts the built binary proxying stubbornServer and
// returns it, its stdin and the server's pid once it is ready.
func stubbornProxy(t *testing.T) (*exec.Cmd, io.WriteCloser, int, context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, builtBinary(t), append([]string{"proxy", "--no-record", "--"}, stubbornServer...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stderr)
	pid := 0
	for pid == 0 && lines.Scan() {
		if n, ok := strings.CutPrefix(lines.Text(), "ready "); ok {
			pid, _ = strconv.Atoi(n)
		}
	}
	if pid == 0 {
		t.Fatalf("the server never said it was ready: %v", lines.Err())
	}
	go func() { _, _ = io.Copy(io.Discard, stderr) }()
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	return cmd, stdin, pid, ctx
}

// exitOf waits for cmd and returns its exit status.
func exitOf(t *testing.T, ctx context.Context, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("the proxy was still running after %s", guard.Run)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return exit.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

// alive says whether pid is a process that has not ended (a zombie has).
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(rest, "Z") && !strings.HasPrefix(rest, "X")
}

// TestProxyStdioHostClosesStdin: a host that closes stdin gets the proxy
// to close the server's; a server that does not exit then is stopped
// (SIGTERM to its group) and its status is the proxy's.
func TestProxyStdioHostClosesStdin(t *testing.T) {
	t.Parallel()
	cmd, stdin, pid, ctx := stubbornProxy(t)
	stdin.Close()
	if code := exitOf(t, ctx, cmd); code != 128+int(syscall.SIGTERM) {
		t.Errorf("exit %d, want %d (the server ended by SIGTERM)", code, 128+int(syscall.SIGTERM))
	}
	if alive(pid) {
		t.Errorf("the server (pid %d) outlived the proxy", pid)
	}
}

// TestProxyStdioSignals: a proxy told to stop by its host (SIGTERM,
// SIGHUP, SIGINT) stops the server's process group before it exits.
func TestProxyStdioSignals(t *testing.T) {
	t.Parallel()
	for sig, want := range map[syscall.Signal]int{
		syscall.SIGTERM: 128 + int(syscall.SIGTERM), // the server's status: ended by the proxy's SIGTERM
		syscall.SIGHUP:  128 + int(syscall.SIGTERM),
		syscall.SIGINT:  ExitInterrupted,
	} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			cmd, _, pid, ctx := stubbornProxy(t)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if code := exitOf(t, ctx, cmd); code != want {
				t.Errorf("exit %d, want %d", code, want)
			}
			if alive(pid) {
				t.Errorf("the server (pid %d) outlived the proxy", pid)
			}
		})
	}
}

// TestProxyStdioKilled: a proxy killed with SIGKILL, which can do nothing
// about it, leaves no orphan: the kernel kills the server with it.
func TestProxyStdioKilled(t *testing.T) {
	t.Parallel()
	cmd, _, pid, ctx := stubbornProxy(t)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	if code := exitOf(t, ctx, cmd); code != 128+int(syscall.SIGKILL) {
		t.Errorf("exit %d, want SIGKILL's", code)
	}
	// The server is killed as the proxy dies, and reaped by whoever
	// inherits it: wait (bounded) until it is gone.
	deadline := time.Now().Add(guard.Hang)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the server (pid %d) outlived the SIGKILLed proxy by %s", pid, guard.Hang)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
