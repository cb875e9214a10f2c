package tuie2e

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// hangGuard bounds every wait for the screen; it is not a timing assertion.
const hangGuard = guard.Hang

// Size of the tmux window the TUI runs in: wide enough for the split layout.
const (
	paneColumns = "160"
	paneLines   = "45"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the text screenshots under docs/")

// updatingDocs reports whether the tests rewrite docs/ (-update-docs or
// MCPSCOPE_UPDATE_DOCS=1).
func updatingDocs() bool { return *updateDocs || os.Getenv("MCPSCOPE_UPDATE_DOCS") == "1" }

// buildBinary builds mcpscope from the repository root into a temporary
// folder and returns its path.
func buildBinary(t *testing.T) string {
	t.Helper()
	needTmux(t)
	bin := filepath.Join(t.TempDir(), "mcpscope")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = peertest.Root()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building mcpscope: %v\n%s", err, out)
	}
	return bin
}

// needTmux fails the test when tmux is missing.
func needTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is not installed: run make tools")
	}
}

// tmuxPane is one detached tmux session, on its own tmux server, running one
// command in a 160×45 window.
type tmuxPane struct {
	t    *testing.T
	name string // both the server socket name and the session name
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// startPane runs argv in a new detached tmux session of 160×45 named after
// the test and this process; the session and its server are killed when
// the test ends.
func startPane(t *testing.T, argv ...string) *tmuxPane {
	t.Helper()
	return startPaneSized(t, paneColumns, paneLines, argv...)
}

// startPaneSized is startPane in a window of columns×lines.
func startPaneSized(t *testing.T, columns, lines string, argv ...string) *tmuxPane {
	t.Helper()
	return startPaneAt(t, "", columns, lines, argv)
}

// startPaneIn is startPane with dir as the working directory.
func startPaneIn(t *testing.T, dir string, argv ...string) *tmuxPane {
	t.Helper()
	return startPaneAt(t, dir, paneColumns, paneLines, argv)
}

// startPaneAt runs argv in dir ("" for this process's) in a window of
// columns×lines.
func startPaneAt(t *testing.T, dir, columns, lines string, argv []string) *tmuxPane {
	t.Helper()
	needTmux(t)
	p := &tmuxPane{t: t, name: fmt.Sprintf("mcpscope-%s-%d", unsafeName.ReplaceAllString(t.Name(), "-"), os.Getpid())}
	args := []string{"new-session", "-d", "-s", p.name, "-x", columns, "-y", lines}
	if dir != "" {
		args = append(args, "-c", dir)
	}
	args = append(args, argv...)
	if out, err := p.tmux(args...); err != nil {
		t.Fatalf("starting tmux session %s: %v\n%s", p.name, err, out)
	}
	t.Cleanup(func() {
		p.tmux("kill-session", "-t", p.name)
		p.tmux("kill-server")
	})
	return p
}

// tmux runs one tmux command against this pane's private server.
func (p *tmuxPane) tmux(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	cmd := exec.CommandContext(ctx, "tmux", append([]string{"-L", p.name}, args...)...)
	cmd.Env = append(os.Environ(), "TMUX=")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// remainOnExit keeps the pane once its command has ended, for its last
// screen to be read.
func (p *tmuxPane) remainOnExit() {
	p.t.Helper()
	if msg, err := p.tmux("set-option", "-t", p.name, "remain-on-exit", "on"); err != nil {
		p.t.Fatalf("remain-on-exit: %v\n%s", err, msg)
	}
}

// keys sends tmux key names ("R", "Enter", "Home", "BTab").
func (p *tmuxPane) keys(keys ...string) {
	p.t.Helper()
	if out, err := p.tmux(append([]string{"send-keys", "-t", p.name}, keys...)...); err != nil {
		p.t.Fatalf("sending keys %q: %v\n%s", keys, err, out)
	}
}

// typeText sends s literally, one character after the other.
func (p *tmuxPane) typeText(s string) {
	p.t.Helper()
	if out, err := p.tmux("send-keys", "-t", p.name, "-l", s); err != nil {
		p.t.Fatalf("typing %q: %v\n%s", s, err, out)
	}
}

// screen captures the visible pane as plain text (no ANSI).
func (p *tmuxPane) screen() (string, error) {
	return p.tmux("capture-pane", "-p", "-t", p.name)
}

// styledScreen captures the visible pane with its text attributes and
// colours as escape sequences.
func (p *tmuxPane) styledScreen() string {
	p.t.Helper()
	s, err := p.tmux("capture-pane", "-p", "-e", "-t", p.name)
	if err != nil {
		p.t.Fatalf("capturing the pane: %v\n%s", err, s)
	}
	return s
}

// history captures the whole pane, its scrolled-off lines too, as plain
// text with wrapped lines joined: a long line the terminal wrapped reads
// as the one line printed.
func (p *tmuxPane) history() (string, error) {
	return p.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", p.name)
}

// waitUntil polls the screen until ok accepts it and returns that screen;
// after the hang guard it fails with what the screen showed last.
func (p *tmuxPane) waitUntil(what string, ok func(screen string) bool) string {
	p.t.Helper()
	return p.waitCapture(what, p.screen, ok)
}

// waitCapture is waitUntil reading the pane with capture.
func (p *tmuxPane) waitCapture(what string, capture func() (string, error), ok func(screen string) bool) string {
	p.t.Helper()
	deadline := time.Now().Add(hangGuard)
	last := ""
	for {
		s, err := capture()
		if err == nil {
			if ok(s) {
				return s
			}
			last = s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the screen never showed %s; last screen:\n%s", what, last)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitFor waits until the screen holds every one of wants.
func (p *tmuxPane) waitFor(wants ...string) string {
	p.t.Helper()
	return p.waitUntil(fmt.Sprintf("%q", wants), func(s string) bool {
		for _, w := range wants {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	})
}

// waitMatch waits until the screen matches re.
func (p *tmuxPane) waitMatch(re *regexp.Regexp) string {
	p.t.Helper()
	return p.waitUntil("/"+re.String()+"/", re.MatchString)
}

// waitGone waits until the command in the pane has ended: the session is
// gone (tmux closes it, and its server, when the command exits).
func (p *tmuxPane) waitGone() {
	p.t.Helper()
	deadline := time.Now().Add(hangGuard)
	for {
		if _, err := p.tmux("has-session", "-t", p.name); err != nil {
			return
		}
		if time.Now().After(deadline) {
			s, _ := p.screen()
			p.t.Fatalf("the TUI did not quit; last screen:\n%s", s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// snapshot writes screen to docs/name when the tests update the docs:
// trailing spaces trimmed and the repository root spelled ".".
func snapshot(t *testing.T, name, screen string) {
	t.Helper()
	if !updatingDocs() {
		return
	}
	screen = strings.ReplaceAll(screen, peertest.Root()+string(filepath.Separator), "./")
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	dir := filepath.Join(peertest.Root(), "docs")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("creating docs/: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatalf("writing docs/%s: %v", name, err)
	}
}

// escapeUntilGone presses Escape, one at a time, until the screen no longer
// holds text. Escapes sent together would reach the program as one
// alt+escape sequence.
func (p *tmuxPane) escapeUntilGone(text string) {
	p.t.Helper()
	p.waitUntil("the screen without "+text, func(s string) bool {
		if !strings.Contains(s, text) {
			return true
		}
		p.keys("Escape")
		return false
	})
}
