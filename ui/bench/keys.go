package bench

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// keyMap holds the bench screen's keys.
type keyMap struct {
	Start, Stop, Close key.Binding
	More, Fewer        key.Binding // concurrency
	Longer, Shorter    key.Binding // duration

}

// defaultKeys returns the bench screen's keys.
func defaultKeys() keyMap {
	return keyMap{
		Start:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run")),
		Stop:    screen.CancelKey("stop the run"),
		Close:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop and close")),
		More:    key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+/-", "concurrency ×2 ÷2")),
		Fewer:   key.NewBinding(key.WithKeys("-"), key.WithHelp("-", "concurrency ÷2")),
		Longer:  key.NewBinding(key.WithKeys(">", "."), key.WithHelp(">/<", "duration")),
		Shorter: key.NewBinding(key.WithKeys("<", ","), key.WithHelp("<", "shorter")),
	}
}

// Help lists the keys that apply now: the settings and enter before a
// run and after it, the stop key while it runs; esc always.
func (b *Bench) Help() help.KeyMap {
	k := b.keys
	full := [][]key.Binding{{k.Start, k.More, k.Longer}, {k.Stop, k.Close}}
	if b.state == stateRunning {
		return keyhelp.Map{Short: []key.Binding{k.Stop, k.Close}, Essential: []key.Binding{k.Close}, Full: full}
	}
	start := k.Start
	if b.state == stateDone {
		start = keyhelp.Relabel(k.Start, "run again")
	}
	short := []key.Binding{start, k.More, k.Longer, k.Close}
	return keyhelp.Map{Short: short, Essential: []key.Binding{start, k.Close}, Full: full}
}

// handleKey acts on a key: esc stops the run and closes the screen.
func (b *Bench) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := b.keys
	switch {
	case key.Matches(msg, k.Close):
		b.stop()
		return nil, true
	case key.Matches(msg, k.Stop):
		if b.state != stateRunning {
			return errorCmd("nothing to stop: no run in progress"), false
		}
		b.stop()
		return nil, false
	case b.state == stateRunning && key.Matches(msg, k.Start, k.More, k.Fewer, k.Longer, k.Shorter):
		return errorCmd(fmt.Sprintf("%s: a run is in progress: %s stops it", msg.String(), k.Stop.Help().Key)), false
	case key.Matches(msg, k.Start):
		return b.start(), false
	case key.Matches(msg, k.More):
		b.cfg.Concurrency = min(b.cfg.Concurrency*2, maxConcurrency)
	case key.Matches(msg, k.Fewer):
		b.cfg.Concurrency = max(b.cfg.Concurrency/2, 1)
	case key.Matches(msg, k.Longer):
		b.cfg.Duration = stepDuration(b.cfg.Duration, 1)
	case key.Matches(msg, k.Shorter):
		b.cfg.Duration = stepDuration(b.cfg.Duration, -1)
	default:
		return screen.NotAKey(msg), false
	}
	return nil, false
}

// stepDuration is the step of durations next to d in direction dir.
func stepDuration(d time.Duration, dir int) time.Duration {
	i, found := slices.BinarySearch(durations, d)
	switch {
	case dir > 0 && found:
		i++
	case dir < 0:
		i--
	}
	return durations[min(max(i, 0), len(durations)-1)]
}

// errorCmd reports why in the status line.
func errorCmd(why string) tea.Cmd {
	return func() tea.Msg { return screen.ErrorMsg{Err: errors.New(why)} }
}

// errNeedsConnection is why a run cannot start without a session.
func errNeedsConnection(err error) error {
	return fmt.Errorf("bench needs a live connection: %w", err)
}
