package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// Prompts of the attach's input line.
const (
	pausePrompt  = "pause on: "
	faultsPrompt = "faults file (empty clears): "
)

// faultsLoadedMsg says how loading a faults file (or clearing the
// faults) went.
type faultsLoadedMsg struct {
	src   AttachSource
	path  string
	rules []proxy.Fault
	err   error
}

// askLine opens the input line with prompt and value; enter hands its
// text to then, esc closes it.
func (m *Model) askLine(prompt, value string, then func(text string) tea.Cmd) tea.Cmd {
	m.filtering, m.asked = true, then
	m.input.Prompt = prompt
	m.input.SetValue(value)
	m.input.CursorEnd()
	return m.input.Focus()
}

// askPause asks for the pause filters, the ones in force as the start.
func (a *Attach) askPause() tea.Cmd {
	if a.ended {
		a.inner.status.setError(errors.New("attach: the session ended, nothing can be paused"))
		return nil
	}
	return a.inner.askLine(pausePrompt, filtersText(a.src.PauseFilters()), a.setPause)
}

// setPause reads the filters typed (several separated by ;) and puts
// them in force; an empty line clears them.
func (a *Attach) setPause(text string) tea.Cmd {
	filters, err := parseFilters(text)
	if err != nil {
		a.inner.status.setError(fmt.Errorf("pause filter: %w", err))
		return nil
	}
	note := "pause filters cleared: nothing is paused from now on"
	if len(filters) > 0 {
		note = "pausing on " + filtersText(filters) + " · " + a.keys.Held.Help().Key + " lists the paused messages"
	}
	src := a.src
	return steerCmd(note, func() error {
		if err := src.PauseOn(filters); err != nil {
			return fmt.Errorf("pause filter: %w", err)
		}
		return nil
	})
}

// parseFilters reads filters separated by ; (proxy.ParseFilter each).
func parseFilters(text string) ([]proxy.Filter, error) {
	var out []proxy.Filter
	for _, part := range strings.Split(text, ";") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		f, err := proxy.ParseFilter(part)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// filtersText writes filters as parseFilters reads them.
func filtersText(filters []proxy.Filter) string {
	parts := make([]string, len(filters))
	for i, f := range filters {
		parts[i] = f.String()
	}
	return strings.Join(parts, "; ")
}

// askFaults asks for a faults file to load.
func (a *Attach) askFaults() tea.Cmd {
	if a.ended {
		a.inner.status.setError(errors.New("attach: the session ended, faults have nothing to act on"))
		return nil
	}
	return a.inner.askLine(faultsPrompt, a.faults, a.loadFaults)
}

// loadFaults reads the faults file at path and puts its rules in force,
// off the UI's goroutine; an empty path clears the faults.
func (a *Attach) loadFaults(path string) tea.Cmd {
	path = strings.TrimSpace(path)
	src := a.src
	return func() tea.Msg {
		var rules []proxy.Fault
		var err error
		if path != "" {
			rules, err = proxy.LoadFaults(path)
		}
		if err == nil {
			err = src.SetFaults(rules)
		}
		return faultsLoadedMsg{src: src, path: path, rules: rules, err: err}
	}
}

// faultsLoaded says how loading the faults went.
func (a *Attach) faultsLoaded(msg faultsLoadedMsg) {
	m := a.inner
	if msg.src != a.src {
		return // for a session that is gone
	}
	err := msg.err
	switch {
	case err != nil && msg.path != "":
		m.status.setError(fmt.Errorf("faults from %s: %w", termtext.Line(msg.path), err))
	case err != nil:
		m.status.setError(fmt.Errorf("clearing the faults: %w", err))
	case msg.path == "":
		a.faults = ""
		m.status.note("faults cleared")
	default:
		a.faults = msg.path
		m.status.notePath(plural.Count(len(msg.rules), "fault rule", "fault rules") + " in force from " + termtext.Line(msg.path))
	}
}

// injector is how the composer's messages reach the session, or nil when
// the Model shows no live proxied session.
func (m *Model) injector() screen.InjectFunc {
	a := m.attach
	if a == nil || a.ended {
		return nil
	}
	src := a.src
	return func(ctx context.Context, body []byte) (string, error) { return src.Inject(ctx, body) }
}
