package cli

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// screenWatch wraps the TUI's root model and keeps the last screen drawn,
// ANSI stripped.
type screenWatch struct {
	tea.Model
	mu   *sync.Mutex
	last *string
}

// View draws the model and keeps a copy.
func (w screenWatch) View() tea.View {
	v := w.Model.View()
	w.mu.Lock()
	*w.last = ansi.Strip(v.Content)
	w.mu.Unlock()
	return v
}

// Update keeps the wrapper as the program's model.
func (w screenWatch) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	w.Model, cmd = w.Model.Update(msg)
	return w, cmd
}

// syncBuffer is a bytes.Buffer safe for the program's writer and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// tuiRun is the TUI running in-process on pipes.
type tuiRun struct {
	keys   *io.PipeWriter
	out    *syncBuffer
	errb   *syncBuffer
	code   chan int
	mu     sync.Mutex
	screen string
}

// startTUI runs mcpscope with args, its keyboard a pipe and its screen a buffer.
func startTUI(t *testing.T, args ...string) *tuiRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run)
	t.Cleanup(cancel)
	in, keys := io.Pipe()
	r := &tuiRun{keys: keys, out: &syncBuffer{}, errb: &syncBuffer{}, code: make(chan int, 1)}
	wrapTUIModel = func(m tea.Model) tea.Model { return screenWatch{Model: m, mu: &r.mu, last: &r.screen} }
	t.Cleanup(func() { wrapTUIModel = nil })
	go func() { r.code <- Execute(ctx, args, in, r.out, r.errb) }()
	t.Cleanup(func() { _ = keys.Close() })
	return r
}

// waitFor waits until the screen output holds every text; the timeout is a
// hang guard only.
func (r *tuiRun) waitFor(t *testing.T, texts ...string) {
	t.Helper()
	deadline := time.Now().Add(guard.Hang)
	for time.Now().Before(deadline) {
		r.mu.Lock()
		screen := r.screen
		r.mu.Unlock()
		all := true
		for _, x := range texts {
			all = all && strings.Contains(screen, x)
		}
		if all {
			return
		}
		select {
		case code := <-r.code:
			t.Fatalf("mcpscope exited %d before showing %q; stderr: %s", code, texts, r.errb.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	t.Fatalf("the screen never showed %q; last screen:\n%s", texts, r.screen)
}

// quit presses q and returns the exit code. A key read while the
// terminal's input is still being parsed can be taken as part of a
// sequence: q is pressed again every few seconds until mcpscope exits.
func (r *tuiRun) quit(t *testing.T) int {
	t.Helper()
	deadline := time.After(guard.Hang)
	for {
		// A write blocks until mcpscope reads it, which it no longer does
		// once it quit: the pipe is closed at the end of the test.
		go func() { _, _ = r.keys.Write([]byte("q")) }()
		select {
		case code := <-r.code:
			return code
		case <-time.After(3 * time.Second):
		case <-deadline:
			t.Fatal("mcpscope did not quit")
			return -1
		}
	}
}

// recordedLine is the line the TUI ends with when it recorded.
var recordedLine = regexp.MustCompile(`(?m)^recorded to .+ · mcpscope replay .+\n`)

// `mcpscope demo` starts the embedded MCP-Flow server, connects with its
// pinned certificate and lists the tools at once; q ends it cleanly.
func TestDemoOpensTheTUI(t *testing.T) {
	r := startTUI(t, "demo")
	r.waitFor(t, "MCP-Flow READY", "mcpscope-demo", "result · tools/list")
	if code := r.quit(t); code != ExitOK {
		t.Fatalf("exit %d; stderr: %s", code, r.errb.String())
	}
	// The one line on stderr says where the session was recorded.
	if rest := recordedLine.ReplaceAllString(r.errb.String(), ""); rest != "" {
		t.Errorf("the demo wrote on stderr: %q", r.errb.String())
	}
}

// `mcpscope demo --transport stdio` runs `mcpscope serve --stdio` as a
// child (here the test binary taking that role) and shows its stderr.
func TestDemoOverStdio(t *testing.T) {
	_, env := stubArgv(t, serveStdioMode)
	r := startTUI(t, "demo", "--transport", "stdio", "--env", env)
	r.waitFor(t, "MCP connected", "mcpscope-demo", "stderr mcpscope demo server on stdio")
	if code := r.quit(t); code != ExitOK {
		t.Fatalf("exit %d; stderr: %s", code, r.errb.String())
	}
}

// `mcpscope [flags] TARGET` opens the TUI on a running server.
func TestRootTargetOpensTheTUI(t *testing.T) {
	d := flowDemo(t)
	r := startTUI(t, "--cert-hash", d.CertHash(), d.Target())
	r.waitFor(t, "MCP-Flow READY", "mcpscope-demo")
	if code := r.quit(t); code != ExitOK {
		t.Fatalf("exit %d; stderr: %s", code, r.errb.String())
	}
}

func TestTUIUsageErrors(t *testing.T) {
	for name, args := range map[string][]string{
		"extra argument":  {"extra", "wt://127.0.0.1:1/mcp"},
		"trace":           {"--trace", "wt://127.0.0.1:1/mcp"},
		"demo transport":  {"demo", "--transport", "carrier-pigeon"},
		"demo argument":   {"demo", "now"},
		"unknown command": {"demoo"},
	} {
		r := mcpscope(t, args...)
		if r.code != ExitUsage || !strings.HasPrefix(r.stderr, "error: ") {
			t.Errorf("%s: exit %d, stderr %q", name, r.code, r.stderr)
		}
	}
}

func TestStdioDemoTargetRunsServeStdio(t *testing.T) {
	target, err := stdioDemoTarget()
	if err != nil {
		t.Fatal(err)
	}
	if target.Transport != "stdio" || len(target.Argv) != 3 || target.Argv[1] != "serve" || target.Argv[2] != "--stdio" {
		t.Errorf("target %+v", target)
	}
}

// `mcpscope demo --transport http` serves the demo over Streamable HTTP in
// this process; the TUI settles the stateless 2026-07-28 era, names the
// transport in the status bar and lists the tools; sse (a legacy session)
// and tools-http open too (tools-http lists nothing: seed 004 has no
// tools/list).
func TestDemoOverHTTP(t *testing.T) {
	for _, c := range []struct {
		transport string
		want      []string
	}{
		{"http", []string{"Streamable HTTP", "2026-07-28 · server/discover", "mcpscope-demo", "tools/list answered"}},
		{"sse", []string{"HTTP+SSE", "mcpscope-demo", "tools/list answered"}},
		{"tools-http", []string{"tools-http", "MCP connected"}},
	} {
		r := startTUI(t, "demo", "--transport", c.transport)
		r.waitFor(t, c.want...)
		if code := r.quit(t); code != ExitOK {
			t.Fatalf("%s: exit %d; stderr: %s", c.transport, code, r.errb.String())
		}
	}
}
