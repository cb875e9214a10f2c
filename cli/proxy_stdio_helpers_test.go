package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/recordings"
)

// proxyArgv is the command line of the built mcpscope proxying server,
// recorded to rec ("" for the state directory).
func proxyArgv(t *testing.T, name, rec string, server []string) []string {
	t.Helper()
	argv := []string{builtBinary(t), "proxy", "--name", name}
	if rec != "" {
		argv = append(argv, "--record", rec)
	}
	return append(append(argv, "--"), server...)
}

// hostCall is one call a host makes: a tool and its arguments.
type hostCall struct {
	tool string
	args map[string]any
}

// hostRun is what the Go SDK client, as a host, got from a server: the
// tools listed and a call's result (as JSON), and the bytes it wrote and
// read.
type hostRun struct {
	tools, result string
	sent, got     []byte
	code          int
	stderr        string
}

// lockedBuffer is a bytes.Buffer safe for concurrent use.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Clone(l.b.Bytes())
}

// teeWriter writes to the server's stdin and keeps a copy.
type teeWriter struct {
	w    io.WriteCloser
	copy *lockedBuffer
}

func (t teeWriter) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	t.copy.Write(p[:n])
	return n, err
}

func (t teeWriter) Close() error { return t.w.Close() }

// goSDKHost runs argv as the official Go SDK client's stdio server: it
// initializes, lists the tools, makes call, closes and waits for argv to
// exit. Every byte each way is kept: what it wrote, and everything argv
// wrote on stdout up to its end (read on even after the client closed).
func goSDKHost(t *testing.T, argv []string, call hostCall) hostRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var sent, got lockedBuffer
	pr, pw := io.Pipe()
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		defer pw.Close()
		buf := make([]byte, 32<<10)
		sdk := true
		for {
			n, err := stdout.Read(buf)
			got.Write(buf[:n])
			if sdk && n > 0 {
				if _, werr := pw.Write(buf[:n]); werr != nil {
					sdk = false // the client closed; read on to the end
				}
			}
			if err != nil {
				return
			}
		}
	}()
	c := mcp.NewClient(&mcp.Implementation{Name: "proxy-test-host", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: pr, Writer: teeWriter{stdin, &sent}}, nil)
	if err != nil {
		t.Fatalf("%s: connect: %v\nstderr: %s", argv[0], err, stderr.Bytes())
	}
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: call.tool, Arguments: call.args})
	if err != nil {
		t.Fatalf("tools/call %s: %v", call.tool, err)
	}
	_ = cs.Close()
	// As hosts do: stdin closed, a server still running after a while is
	// asked to stop (a server that outlives its stdin is no failure here).
	select {
	case <-copied:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-copied
	}
	werr := cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("%s was still running after %s", argv[0], guard.Run)
	}
	code := 0
	var exit *exec.ExitError
	if errors.As(werr, &exit) {
		code = exit.ExitCode()
	}
	return hostRun{tools: jsonOf(t, lt), result: jsonOf(t, res), sent: sent.Bytes(), got: got.Bytes(), code: code, stderr: string(stderr.Bytes())}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// recorded reads the recording at path: the bytes of its control frames
// each way, in order, and all its frames.
func recorded(t *testing.T, path string) (out, in []byte, frames []*capture.Frame) {
	t.Helper()
	r, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("reading %s: %v", path, err)
		}
		if rec.Kind != recordings.RecFrame {
			continue
		}
		f := rec.Frame
		frames = append(frames, f)
		if f.Chan.Kind != capture.Control {
			continue
		}
		if f.Dir == capture.Out {
			out = append(out, f.Raw...)
		} else {
			in = append(in, f.Raw...)
		}
	}
	return out, in, frames
}

// runInspectorOn runs the MCP Inspector's CLI against target with args
// and returns what it printed on stdout. The Inspector takes its options
// first, then "--" (--tool-arg takes every word up to it), then the
// target, its own "--" included.
func runInspectorOn(t *testing.T, target []string, args ...string) string {
	t.Helper()
	return runInspector(t, append(append(args, "--"), target...)...)
}
