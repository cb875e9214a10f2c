package screentest

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
)

// Runner runs commands as the Bubble Tea runtime would, for tests that
// drive a model's Update without a terminal: every message a command
// yields goes to Update on the test's goroutine, and the commands Update
// returns run too.
type Runner struct {
	t      testing.TB
	update func(tea.Msg) tea.Cmd
	view   func() string
	// Msgs are the messages waiting for Update; Stop closes with the test.
	Msgs chan tea.Msg
	Stop chan struct{}
}

// NewRunner returns a runner of update, whose screen is view; its
// commands end with the test.
func NewRunner(t testing.TB, update func(tea.Msg) tea.Cmd, view func() string) *Runner {
	r := &Runner{t: t, update: update, view: view, Msgs: make(chan tea.Msg, 64), Stop: make(chan struct{})}
	t.Cleanup(func() { close(r.Stop) })
	return r
}

// Run starts cmd (each command of a batch in its own goroutine).
func (r *Runner) Run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if batch, ok := msg.(tea.BatchMsg); ok {
			for _, c := range batch {
				r.Run(c)
			}
			return
		}
		if msg == nil {
			return
		}
		select {
		case r.Msgs <- msg:
		case <-r.Stop:
		}
	}()
}

// Press sends keys to the model and runs their commands.
func (r *Runner) Press(keys ...string) {
	for _, k := range keys {
		r.Send(keytest.Press(k))
	}
}

// Send delivers msg to the model and runs its command.
func (r *Runner) Send(msg tea.Msg) { r.Run(r.update(msg)) }

// TypeText presses each rune of s.
func (r *Runner) TypeText(s string) {
	for _, c := range s {
		r.Press(string(c))
	}
}

// Until delivers messages until ok holds; the timeout is a hang guard.
func (r *Runner) Until(what string, ok func() bool) {
	r.t.Helper()
	guard := time.NewTimer(guard.Hang)
	defer guard.Stop()
	for !ok() {
		select {
		case msg := <-r.Msgs:
			r.Send(msg)
		case <-guard.C:
			r.t.Fatalf("never reached: %s; screen:\n%s", what, r.ScreenText())
		}
	}
}

// ScreenText is the model's screen without escapes and trailing spaces.
func (r *Runner) ScreenText() string { return goldentest.Plain(r.view()) }
