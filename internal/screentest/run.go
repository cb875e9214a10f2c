package screentest

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/flowtest"
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
	deadline := time.Now().Add(flowtest.HangGuard)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s never came", what)
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
	msgs := make(chan tea.Msg, 64)
	var run func(tea.Cmd)
	run = func(c tea.Cmd) {
		if c == nil {
			return
		}
		go func() {
			msg := c()
			if b, ok := msg.(tea.BatchMsg); ok {
				for _, sub := range b {
					run(sub)
				}
				return
			}
			select {
			case msgs <- msg:
			default:
			}
		}()
	}
	run(cmd)
	deadline := time.After(flowtest.HangGuard)
	for {
		select {
		case msg := <-msgs:
			if answer(msg) {
				return msg
			}
		case <-deadline:
			t.Fatalf("%s never ended", what)
		}
	}
}

// Ctrl is the key press of ctrl and a letter.
func Ctrl(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl} }
