package screentest

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// RunInBackground runs cmd, and the commands of a batch, dropping their
// messages.
func RunInBackground(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		if b, ok := cmd().(tea.BatchMsg); ok {
			for _, sub := range b {
				RunInBackground(sub)
			}
		}
	}()
}

// WaitFor polls ok; the timeout is a hang guard.
func WaitFor(t testing.TB, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(guard.Hang)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s never came within %s", what, guard.Hang)
		}
		time.Sleep(time.Millisecond)
	}
}

// RunUntil runs cmd, and the commands of a batch, until one of them
// returns a message answer accepts, and returns that message; the other
// messages (ticks, cursor blinks) are dropped. what names the answer for
// the hang guard's failure.
func RunUntil(t testing.TB, what string, cmd tea.Cmd, answer func(tea.Msg) bool) tea.Msg {
	t.Helper()
	var got tea.Msg
	keep := func(msg tea.Msg) tea.Cmd {
		if got == nil && answer(msg) {
			got = msg
		}
		return nil
	}
	r := NewRunner(t, keep, func() string { return "" })
	r.Run(cmd)
	r.Until(what, func() bool { return got != nil })
	return got
}

// Ctrl is the key press of ctrl and a letter.
func Ctrl(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl} }
