package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/cli"
	"github.com/mcpscope/mcpscope/internal/app/statedir"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// The test binary plays two parts when re-run with roleEnv set: "main"
// runs mcpscope's main with the arguments after the program name, and
// "silent" is a stdio server that reads everything and answers nothing;
// "chatty" is one that sends notifications once initialized (chattyServer).
const roleEnv = "MCPSCOPE_MAIN_TEST_ROLE"

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case "main":
		main()
	case "silent":
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	case "chatty":
		chattyServer()
		os.Exit(0)
	}
	os.Exit(statedir.Run(m.Run))
}

// hangGuard bounds the test's waits; it fires only on a hang.
const hangGuard = guard.Hang

// neverTimeout is a --timeout past every wait of these tests, so that only
// the signal or kill under test ends the run.
var neverTimeout = guard.Run.String()

// Ctrl-C (SIGINT) ends a run that is waiting for a silent server with exit
// 130 and one line on stderr saying it was interrupted.
func TestInterruptExits130(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "call", "--trace", "--timeout", neverTimeout, "tools/list", "--env", roleEnv+"=silent", "--", exe)
	cmd.Env = append(os.Environ(), roleEnv+"=main")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		exited <- cmd.Wait()
	}()
	limit := time.NewTimer(hangGuard)
	defer limit.Stop()
	// The first traced request says the run is under way.
	var seen []string
	for sent := false; !sent; {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("mcpscope ended before sending a request:\n%s", strings.Join(seen, "\n"))
			}
			seen = append(seen, line)
			if strings.Contains(line, " → control ") {
				if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
					t.Fatal(err)
				}
				sent = true
			}
		case <-limit.C:
			_ = cmd.Process.Kill()
			t.Fatalf("no request was traced within %s; stderr so far:\n%s", hangGuard, strings.Join(seen, "\n"))
		}
	}
	var werr error
	for done := false; !done; {
		select {
		case line, ok := <-lines:
			if !ok { // stderr ended; the exit follows
				werr, done = <-exited, true
				break
			}
			seen = append(seen, line)
		case <-limit.C:
			_ = cmd.Process.Kill()
			t.Fatalf("mcpscope did not end within %s of starting and SIGINT:\n%s", hangGuard, strings.Join(seen, "\n"))
		}
	}
	var exit *exec.ExitError
	if !errors.As(werr, &exit) || exit.ExitCode() != cli.ExitInterrupted {
		t.Fatalf("exit %v, want %d:\n%s", werr, cli.ExitInterrupted, strings.Join(seen, "\n"))
	}
	if last := seen[len(seen)-1]; last != "error: interrupted" {
		t.Errorf("last line %q, want %q", last, "error: interrupted")
	}
}
