package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/mcpscope/mcpscope/demo/http"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// methodLog records the JSON-RPC methods a handler is sent.
type methodLog struct {
	mu      sync.Mutex
	methods []string
}

func (l *methodLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var m struct {
			Method string `json:"method"`
		}
		if json.Unmarshal(body, &m) == nil && m.Method != "" {
			l.mu.Lock()
			l.methods = append(l.methods, m.Method)
			l.mu.Unlock()
		}
		h.ServeHTTP(w, r)
	})
}

func (l *methodLog) count(method string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, m := range l.methods {
		if m == method {
			n++
		}
	}
	return n
}

// demoTaskURL serves the demo over HTTP (2026-07-28 stateless, where its
// task tools answer with tasks) for one test, logging each method.
func demoTaskURL(t *testing.T) (string, *methodLog) {
	t.Helper()
	h := demohttp.New(demoCore(t), demohttp.Options{})
	log := &methodLog{}
	srv := httptest.NewServer(log.wrap(h))
	t.Cleanup(func() { h.Close(); srv.Close() })
	return srv.URL + demohttp.PathMCP, log
}

// Headless call and tool follow a v2 task of the demo to its end: the
// final result on stdout, each status change a line on stderr, exit codes
// as for any result; a server that lies is bounded by --max-time and
// --timeout, and the task is cancelled.
func TestCallFollowsDemoTask(t *testing.T) {
	t.Parallel()
	answers := filepath.Join(t.TempDir(), "answers.yaml")
	if err := os.WriteFile(answers, []byte("elicitation:\n  - action: accept\n    content: {name: Ada}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		stdout  string
		stderr  []string
		cancels bool
	}{
		{"input required answered", []string{"tool", "--answers", answers, "ask_name"}, ExitOK, `Hello, Ada!`,
			[]string{"input_required: Waiting for the name", "completed: Done"}, false},
		{"call json", []string{"call", "--format", "json", "tools/call", `{"name":"ask_name","arguments":{"name":"Bob"}}`}, ExitOK,
			`{"content":[{"type":"text","text":"Hello, Bob!"}]}`, []string{"working: Started"}, false},
		{"tool error", []string{"tool", "failing_job"}, ExitRPCError, "the job failed", []string{"completed: Done"}, false},
		{"failed", []string{"tool", "protocol_error_job"}, ExitRPCError, "", []string{"failed: the job broke"}, false},
		{"max time", []string{"tool", "--max-time", "1s", "slow_compute", "seconds:=30"}, ExitTimeout, "",
			[]string{"max time of 1s", "sent tasks/cancel"}, true},
		{"never terminal", []string{"tool", "--timeout", "300ms", "task_misbehave", "mode=stuck"}, ExitTimeout, "",
			[]string{"showed no status change; sent tasks/cancel"}, true},
		{"unknown status", []string{"tool", "task_misbehave", "mode=unknown_status"}, ExitProtocol, "",
			[]string{`status "paused", which the Tasks extension does not define`}, true},
		{"negative poll interval", []string{"tool", "task_misbehave", "mode=poll_negative"}, ExitOK,
			"done despite a negative pollIntervalMs", nil, false},
		{"huge poll interval", []string{"tool", "--max-time", "1s", "task_misbehave", "mode=poll_huge"}, ExitTimeout, "",
			[]string{"sent tasks/cancel"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			url, log := demoTaskURL(t)
			r := runBuilt(t, append(tc.args, url)...)
			if r.code != tc.code || !strings.Contains(r.stdout, tc.stdout) {
				t.Fatalf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", r.code, tc.code, r.stdout, r.stderr)
			}
			for _, want := range tc.stderr {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
				}
			}
			if got := log.count(mcp.MethodTasksCancel); (got > 0) != tc.cancels {
				t.Errorf("%d tasks/cancel sent; want some: %v", got, tc.cancels)
			}
			if log.count(mcp.MethodTasksGet)+log.count(mcp.MethodSubscriptionsListen) == 0 && tc.code != ExitProtocol {
				t.Errorf("the task was neither polled nor listened to: %v", log.methods)
			}
		})
	}
}

// The TypeScript everything server's simulate-research-query requires v1
// task execution. mcpscope tool asks for it (its listing says so) and
// follows the task through input_required (the elicitation arrives
// through tasks/result, answered from --answers) to the report; mcpscope
// call, which lists nothing first, is refused, learns why and calls again
// as a task.
func TestToolFollowsTSEverythingTask(t *testing.T) {
	t.Parallel()
	answers := filepath.Join(t.TempDir(), "answers.yaml")
	if err := os.WriteFile(answers, []byte("elicitation:\n  - action: accept\n    content: {interpretation: snake}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, report string
		args         []string
		stderr       []string
	}{
		{"tool", "Research Report: python (snake)",
			[]string{"tool", "--answers", answers, "simulate-research-query", "topic=python", "ambiguous:=true"},
			[]string{" working: Gathering sources...", " input_required: ", "completed"}},
		{"call", "Research Report: go",
			[]string{"call", "tools/call", `{"name":"simulate-research-query","arguments":{"topic":"go"}}`},
			[]string{`runs only as a task (execution.taskSupport: required): calling it again as one`, " working: Gathering sources...", "completed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := runBuilt(t, append(append(tc.args, "--"), peertest.TSEverything(t, "stdio")...)...)
			if r.code != ExitOK || !strings.Contains(r.stdout, tc.report) {
				t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
			}
			for _, want := range tc.stderr {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
				}
			}
		})
	}
}

// Ctrl-C while a task runs cancels the task with tasks/cancel before the
// run exits as interrupted.
func TestToolInterruptedCancelsTask(t *testing.T) {
	t.Parallel()
	url, log := demoTaskURL(t)
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
	defer cancel()
	cmd := exec.CommandContext(ctx, builtBinary(t), "tool", "slow_compute", "seconds:=30", url)
	cmd.Env = append(cmd.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "MCPSCOPE_KEYRING=off")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stderr)
	for lines.Scan() && !strings.Contains(lines.Text(), "working: Computing") {
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() {
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != ExitInterrupted {
		t.Fatalf("exit: %v, want %d", err, ExitInterrupted)
	}
	if log.count(mcp.MethodTasksCancel) != 1 {
		t.Errorf("tasks/cancel sent %d times", log.count(mcp.MethodTasksCancel))
	}
}
