package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// stdoutTerminal stands in for a terminal on stdout: mcpscope takes it
// for one (terminalWriter) of width cells.
type stdoutTerminal struct {
	bytes.Buffer
	width int
}

// TerminalWidth makes stdoutTerminal a terminalWriter.
func (s *stdoutTerminal) TerminalWidth() int { return s.width }

// mcpscopeAtTerminal runs the command tree in-process as mcpscope does,
// its stdout a terminal width cells wide.
func mcpscopeAtTerminal(t *testing.T, width int, args ...string) result {
	t.Helper()
	return runWith(t, &stdoutTerminal{width: width}, args...)
}

// runWith runs the command tree in-process as mcpscope does, its stdout
// the stand-in terminal out.
func runWith(t *testing.T, out interface {
	terminalWriter
	String() string
}, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
	defer cancel()
	var errb bytes.Buffer
	code := Execute(ctx, args, strings.NewReader(""), out, &errb)
	if ctx.Err() != nil {
		t.Errorf("mcpscope %s was still running after %s; stopped, it wrote:\nstdout: %s\nstderr: %s",
			strings.Join(args, " "), guard.Run, out.String(), errb.String())
	}
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

// checkFits fails when a line of s is wider than width cells.
func checkFits(t *testing.T, s string, width int) {
	t.Helper()
	for _, l := range strings.Split(s, "\n") {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("a line of %d cells on a terminal of %d: %q", w, width, l)
		}
	}
}

// checkLines fails unless stdout is exactly the lines want.
func checkLines(t *testing.T, r result, want ...string) {
	t.Helper()
	if r.stdout != strings.Join(want, "\n")+"\n" {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, strings.Join(want, "\n"))
	}
}

// A stand-in terminal is a terminal to every check mcpscope makes.
func TestOutputStandInTerminal(t *testing.T) {
	var buf bytes.Buffer
	term := &stdoutTerminal{width: 42}
	if !isTerminal(term) || terminalWidth(term) != 42 || isTerminal(&buf) || terminalWidth(&buf) != 0 {
		t.Fatal("the stand-in terminal is not taken for one, or a buffer is")
	}
}
