package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/recordings"
)

// runProxyInProcess runs `mcpscope proxy args…` in-process with the host's ends
// stdin and stdout, and returns its exit code and what it wrote on
// stderr.
func runProxyInProcess(t *testing.T, stdin io.Reader, stdout io.Writer, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
	defer cancel()
	var errb lockedBuffer
	code := Execute(ctx, append([]string{"proxy"}, args...), stdin, stdout, &errb)
	if ctx.Err() != nil {
		t.Fatalf("mcpscope proxy %s was still running after %s; stderr: %s", strings.Join(args, " "), guard.Run, errb.Bytes())
	}
	return code, string(errb.Bytes())
}

// TestProxyStdioExitStatusAndStderr: the server's exit status is the
// proxy's, 0 included, and its stderr reaches the host's unchanged.
func TestProxyStdioExitStatusAndStderr(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		script string
		code   int
	}{
		{`printf 'oops\nno newline' >&2; exit 3`, 3},
		{`printf 'oops\nno newline' >&2`, 0},
	} {
		var out bytes.Buffer
		code, stderr := runProxyInProcess(t, strings.NewReader(""), &out, "--no-record", "--", "sh", "-c", c.script)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d; stderr: %s", c.script, code, c.code, stderr)
		}
		if !strings.Contains(stderr, "oops\nno newline") || out.Len() != 0 {
			t.Errorf("%s: stderr %q, stdout %q", c.script, stderr, out.String())
		}
		if c.code == 0 && strings.Contains(stderr, "error:") {
			t.Errorf("a server that exits 0 is no error: %s", stderr)
		}
	}
	// The real binary, for the process's own exit status.
	r := runBinary(t, strings.NewReader(""), builtBinary(t), "proxy", "--no-record", "--", "sh", "-c", "exit 3")
	if r.code != 3 {
		t.Errorf("the binary exited %d, want 3; stderr: %s", r.code, r.stderr)
	}
}

// TestProxyStdioGarbageFromHost: a line that is no JSON-RPC reaches the
// server unchanged, as do the lines around it, and is captured as an
// error frame.
func TestProxyStdioGarbageFromHost(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	got, rec := filepath.Join(dir, "server-read"), filepath.Join(dir, "rec.jsonl")
	in := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + "this is not json\r\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" + "[1,2"
	code, stderr := runProxyInProcess(t, strings.NewReader(in), io.Discard, "--record", rec, "--", "sh", "-c", `cat > "$0"`, got)
	if code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, stderr)
	}
	read, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	if string(read) != in {
		t.Errorf("the server read %q, the host wrote %q", read, in)
	}
	out, _, frames := recorded(t, rec)
	if string(out) != in {
		t.Errorf("recorded host → server %q, want %q", out, in)
	}
	bad := 0
	for _, f := range frames {
		if f.Chan.Kind == capture.Control && f.Err != nil {
			bad++
			if !bytes.HasPrefix(f.Raw, []byte("this is not json")) && !bytes.HasPrefix(f.Raw, []byte("[1,2")) {
				t.Errorf("error frame %q: %v", f.Raw, f.Err)
			}
		}
	}
	if bad != 2 {
		t.Errorf("%d error frames, want 2 (the garbage and the broken last line)", bad)
	}
}

// TestProxyStdioServerDiesMidAnswer: a server that dies halfway through
// a line gives the proxy its status; the host gets the half line, and the
// recording keeps everything up to the end.
func TestProxyStdioServerDiesMidAnswer(t *testing.T) {
	t.Parallel()
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	half := `{"jsonrpc":"2.0","id":1,"result":{"to`
	req := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n"
	var out bytes.Buffer
	code, stderr := runProxyInProcess(t, strings.NewReader(req), &out, "--record", rec, "--",
		"sh", "-c", `read line; printf '%s' "$0"; echo dying >&2; exit 7`, half)
	if code != 7 || !strings.Contains(stderr, "dying") {
		t.Fatalf("exit %d, want 7; stderr: %s", code, stderr)
	}
	if out.String() != half {
		t.Errorf("the host got %q, want %q", out.String(), half)
	}
	sent, got, frames := recorded(t, rec)
	if string(sent) != req || string(got) != half {
		t.Errorf("recorded %q and %q", sent, got)
	}
	var stderrLine, ended bool
	for _, f := range frames {
		stderrLine = stderrLine || f.Chan.Kind == capture.Stderr && string(f.Raw) == "dying\n"
		if m, ok := proxy.ParseMark(f); ok && m.What == proxy.WhatEnded {
			ended = strings.Contains(m.Note, "status 7")
		}
	}
	if !stderrLine || !ended {
		t.Errorf("stderr line recorded %v, end with status 7 recorded %v", stderrLine, ended)
	}
}

// mcpLines drives a stdio session by hand, as a host: it writes lines
// and reads the answers.
type mcpLines struct {
	w *io.PipeWriter
	r *bufio.Reader
}

// ask writes line and returns the next line that holds want.
func (m mcpLines) ask(t *testing.T, line, want string) string {
	t.Helper()
	if _, err := io.WriteString(m.w, line+"\n"); err != nil {
		t.Fatal(err)
	}
	for {
		got, err := m.r.ReadString('\n')
		if err != nil {
			t.Fatalf("waiting for %s: %v", want, err)
		}
		if strings.Contains(got, want) {
			return got
		}
	}
}

const (
	initLine  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"host","version":"1"}}}`
	initedMsg = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	listLine  = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
)

// hostSession runs the proxy in-process with args, initializes and lists
// the tools of the Go SDK server through it, closes its stdin and returns
// the tools/list answer, the exit code and stderr.
func hostSession(t *testing.T, args ...string) (answer string, code int, stderr string) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		code, stderr = runProxyInProcess(t, inR, outW, append(args, append([]string{"--"}, peertest.GoSDKEverything(t)...)...)...)
		outW.Close()
	}()
	host := mcpLines{w: inW, r: bufio.NewReader(outR)}
	host.ask(t, initLine, `"id":1`)
	if _, err := io.WriteString(inW, initedMsg+"\n"); err != nil {
		t.Fatal(err)
	}
	answer = host.ask(t, listLine, `"id":2`)
	inW.Close()
	_, _ = io.Copy(io.Discard, outR)
	<-done
	return answer, code, stderr
}

// TestProxyStdioRecordingOnFullDisk: a recording that cannot be written
// (/dev/full) stops; the session goes on and the proxy says so on stderr.
func TestProxyStdioRecordingOnFullDisk(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Fatalf("/dev/full: %v", err)
	}
	answer, code, stderr := hostSession(t, "--record", "/dev/full")
	if code != 0 || !strings.Contains(answer, `"name":"greet"`) {
		t.Errorf("exit %d, tools/list answered %s", code, answer)
	}
	if !strings.Contains(stderr, "mcpscope proxy: the recording stopped") {
		t.Errorf("stderr does not say the recording stopped:\n%s", stderr)
	}
}

// TestProxyStdioSameName: two proxies of the same name at once both
// work, each with a recording of its own.
func TestProxyStdioSameName(t *testing.T) {
	t.Parallel()
	const name = "twin-proxy"
	var wg sync.WaitGroup
	answers := make([]string, 2)
	for i := range answers {
		wg.Go(func() {
			var code int
			answers[i], code, _ = hostSession(t, "--name", name)
			if code != 0 {
				t.Errorf("proxy %d exited %d", i, code)
			}
		})
	}
	wg.Wait()
	for i, a := range answers {
		if !strings.Contains(a, `"name":"greet"`) {
			t.Errorf("proxy %d: tools/list answered %s", i, a)
		}
	}
	dir, err := recordings.Dir()
	if err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*proxy-"+name+"*"))
	if len(paths) != 2 {
		t.Fatalf("recordings of %s: %q, want two", name, paths)
	}
	for _, p := range paths {
		out, in, _ := recorded(t, p)
		if !bytes.Contains(out, []byte(listLine+"\n")) || !bytes.Contains(in, []byte(`"name":"greet"`)) {
			t.Errorf("%s misses the session:\n%s\n%s", p, out, in)
		}
	}
}

// binaryResult is what a run of the built binary did.
type binaryResult struct {
	code   int
	stderr string
}

// runBinary runs argv with stdin and returns its exit code and stderr.
func runBinary(t *testing.T, stdin io.Reader, argv ...string) binaryResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = stdin
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s was still running after %s", strings.Join(argv, " "), guard.Run)
	}
	code := 0
	if err != nil {
		var exit interface{ ExitCode() int }
		if !errors.As(err, &exit) {
			t.Fatal(err)
		}
		code = exit.ExitCode()
	}
	return binaryResult{code: code, stderr: errb.String()}
}
