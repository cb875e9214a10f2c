package cli

import (
	"bufio"
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/internal/testkit/rectest"
)

// listeningLine is what `mcpscope proxy --listen` says once it listens.
var listeningLine = regexp.MustCompile(`^mcpscope proxy: listening on (http://127\.0\.0\.1:\d+/\S*) → (\S+)$`)

// `mcpscope proxy --listen 127.0.0.1:0 URL` says on stderr where it
// listens; the Inspector CLI pointed there gets the server's answers, and
// the recording holds both directions.
func TestProxyHTTPListenCommand(t *testing.T) {
	bin := builtBinary(t)
	peer := peertest.StartTSStreamableHTTP(t)
	rec := filepath.Join(t.TempDir(), "listen.jsonl")
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "proxy", "--name", "listened", "--record", rec, "--listen", "127.0.0.1:0", peer.URL)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	local := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listeningLine.FindStringSubmatch(sc.Text()); m != nil && m[2] == peer.URL {
				local <- m[1]
			}
		}
		exited <- cmd.Wait()
	}()
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			_ = cmd.Process.Signal(syscall.SIGTERM)
			<-exited
		}
	}
	defer stop()
	var url string
	select {
	case url = <-local:
	case err := <-exited:
		stopped = true
		t.Fatalf("the proxy exited before it listened: %v", err)
	}
	got := runInspector(t, url, "--transport", "http", "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi")
	if !strings.Contains(got, "Echo: hi") {
		t.Fatalf("through the proxy the Inspector got %s", got)
	}
	stop()
	store, _ := rectest.Replay(t, rec)
	var out, in bool
	for _, f := range store.Window(0, store.Len()) {
		if f.Chan.Kind == capture.Control && f.Dir == capture.Out && strings.Contains(string(f.Raw), `"tools/call"`) {
			out = true
		}
		if f.Chan.Kind == capture.Control && f.Dir == capture.In && strings.Contains(string(f.Raw), "Echo: hi") {
			in = true
		}
	}
	if !out || !in {
		t.Fatalf("the recording misses the call (%v) or its answer (%v)", out, in)
	}
}

// The line `mcpscope proxy --listen` prints on stderr masks, in the
// server's URL, the secret query parameters (?key=, ?sig=), not its
// password alone.
func TestProxyHTTPListeningLineMasksQueryTokens(t *testing.T) {
	bin := builtBinary(t)
	rec := filepath.Join(t.TempDir(), "masked.jsonl")
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run)
	defer cancel()
	target := "http://u:pw-SEKRET0@127.0.0.1:1/mcp?key=SEKRET1&sig=SEKRET2&x=1"
	cmd := exec.CommandContext(ctx, bin, "proxy", "--name", "masked", "--record", rec, "--listen", "127.0.0.1:0", target)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line := make(chan string, 1)
	exited := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "mcpscope proxy: listening on") {
				line <- sc.Text()
			}
		}
		exited <- cmd.Wait()
	}()
	select {
	case got := <-line:
		// The local URL keeps the query: the host sends it, and the relay
		// carries the host's query on.
		_, server, _ := strings.Cut(got, " → ")
		if strings.Contains(server, "SEKRET") || !strings.Contains(server, "x=1") {
			t.Errorf("stderr said %q", got)
		}
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-exited
	case err := <-exited:
		t.Fatalf("the proxy exited before it listened: %v", err)
	}
}
