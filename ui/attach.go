package ui

import (
	"context"
	"errors"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/recordings"
)

// Attach is the TUI on a live proxied session (mcpscope attach): the
// panes of a Model on the session's store, refreshed as it grows, with
// the host shown as the client, keys that steer the traffic (pause,
// forward, edit, drop, inject, faults) and every key that needs a
// connection of mcpscope's own refused. When the session ends its
// frames stay readable; with a next, the Attach waits for the next
// session and swaps to it, keeping the size, styles, focus and filter.
// Create it with NewAttach; call Close after the program ends.
type Attach struct {
	src  AttachSource
	next func(ctx context.Context) (AttachSource, error)
	keys AttachKeys

	inner *Model
	size  *tea.WindowSizeMsg
	ctx   context.Context // ends with Close: stops the waits
	stop  context.CancelFunc

	ended   bool       // src is done
	waiting bool       // for the next session
	nextErr error      // why waiting for the next session stopped
	faults  string     // the faults file loaded last, "" for none
	state   steerState // what the status bar shows of the steering
}

// Messages of an attach.
type (
	// attachEndedMsg says src is done.
	attachEndedMsg struct{ src AttachSource }
	// attachNextMsg carries the next session, or why there is none.
	attachNextMsg struct {
		src AttachSource
		err error
	}
)

// NewAttach returns the TUI on src. next, when not nil, returns the next
// session of the same proxy once src has ended (blocking until it starts
// or ctx is done).
func NewAttach(src AttachSource, next func(ctx context.Context) (AttachSource, error)) *Attach {
	ctx, stop := context.WithCancel(context.Background())
	a := &Attach{src: src, next: next, keys: DefaultAttachKeys(), ctx: ctx, stop: stop}
	a.inner = a.model(src)
	a.readState()
	return a
}

// model builds the Model that shows src.
func (a *Attach) model(src AttachSource) *Model {
	h := src.Header()
	m := New(Config{Store: src.Store(), Target: attachTitle(h), RecordHeader: h}) // ctrl+s saves it as the proxy records
	m.attach = a
	m.setProxied(h.Proxy)
	m.setLink(recordedLink(h.Transport, ""))
	return m
}

// attachTitle names the session in the tab bar and the window's title:
// "attach NAME (proxy of TARGET)".
func attachTitle(h recordings.Header) string {
	t := "attach " + h.Proxy
	if h.Target != "" {
		t += " (proxy of " + h.Target + ")"
	}
	return t
}

// Init starts the Model and waits for the session to end.
func (a *Attach) Init() tea.Cmd {
	return tea.Batch(a.inner.Init(), refreshNow, a.waitEnd(a.src))
}

// waitEnd waits for src to end.
func (a *Attach) waitEnd(src AttachSource) tea.Cmd {
	ctx := a.ctx
	return func() tea.Msg {
		select {
		case <-src.Done():
			return attachEndedMsg{src: src}
		case <-ctx.Done():
			return nil
		}
	}
}

// waitNext waits for the next session.
func (a *Attach) waitNext() tea.Cmd {
	ctx, next := a.ctx, a.next
	return func() tea.Msg {
		src, err := next(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if err == nil && src == nil {
			err = errors.New("no next session")
		}
		return attachNextMsg{src: src, err: err}
	}
}

// Update handles the steering keys, refuses the keys that need a
// connection of mcpscope's own, follows the session's end and the next
// session, and hands everything else to the Model.
func (a *Attach) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case refreshMsg, passMsg, tea.KeyPressMsg, attachEndedMsg, attachNextMsg, faultsLoadedMsg, steeredMsg, ErrorMsg:
		defer a.readState() // what they did to the steering, for the status bar
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.size = &msg
	case attachEndedMsg:
		return a, a.sessionEnded(msg.src)
	case attachNextMsg:
		return a, a.nextSession(msg)
	case faultsLoadedMsg:
		a.faultsLoaded(msg)
		return a, nil
	case steeredMsg:
		a.inner.status.note(msg.note) // and the open screen reads the paused messages again
	case tea.KeyPressMsg:
		if cmd, ok := a.handleKey(msg); ok {
			return a, cmd
		}
	}
	_, cmd := a.inner.Update(msg)
	return a, cmd
}

// sessionEnded says the session ended and, with a next, starts waiting
// for the next one.
func (a *Attach) sessionEnded(src AttachSource) tea.Cmd {
	if src != a.src {
		return nil // a session swapped out already
	}
	a.ended = true
	if _, ok := a.inner.overlay.(*heldScreen); ok {
		a.inner.setOverlay(nil) // nothing is paused any more
	}
	a.inner.status.note("the session ended; its frames stay readable")
	if a.next == nil {
		return refreshNow
	}
	a.waiting = true
	return tea.Batch(refreshNow, a.waitNext())
}

// nextSession swaps to the next session, or says why there is none.
func (a *Attach) nextSession(msg attachNextMsg) tea.Cmd {
	a.waiting = false
	if msg.err != nil {
		a.nextErr = msg.err
		a.inner.status.setError(fmt.Errorf("waiting for the next session: %w", msg.err))
		return nil
	}
	a.src, a.ended, a.nextErr, a.faults = msg.src, false, nil, ""
	cmd := a.swap(msg.src)
	a.inner.status.note("the next session of " + msg.src.Header().Proxy + " started")
	return tea.Batch(cmd, a.waitEnd(msg.src))
}

// swap shows src in a new Model, as the old one was shown.
func (a *Attach) swap(src AttachSource) tea.Cmd {
	old := a.inner
	m := a.model(src)
	m.setStyles(old.styles.Dark, old.styles.Plain)
	if a.size != nil {
		m.setSize(a.size.Width, a.size.Height)
	}
	m.setFocus(old.focus)
	m.usePictures(old.styles.Pictures)
	cmds := []tea.Cmd{m.startPictures()}
	if text := old.filterText(); text != "" {
		cmds = append(cmds, m.applyFilter(text))
	}
	_ = old.Close()
	a.inner = m
	// The store was filled before the Model subscribed: read it now.
	return tea.Batch(append(cmds, refreshNow)...)
}

// handleKey runs a steering key or refuses a key that needs a connection
// of mcpscope's own; keys typed in an input, a screen or the help go to
// the Model.
func (a *Attach) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	m := a.inner
	if m.filtering || m.overlay != nil || m.showHelp || m.quitAsked > 0 {
		return nil, false
	}
	k := a.keys
	switch {
	case key.Matches(msg, k.Pause):
		return a.askPause(), true
	case key.Matches(msg, k.Held):
		return a.openHeld(), true
	case key.Matches(msg, k.Faults):
		return a.askFaults(), true
	case key.Matches(msg, m.keys.Compose) && a.ended:
		m.status.setError(errors.New("attach: the session ended, there is nothing to inject into"))
		return nil, true
	}
	for _, b := range m.keys.refusedOnAttach() {
		if key.Matches(msg, b) {
			m.status.setError(fmt.Errorf("attach: %s needs a connection of mcpscope's own; %s injects into the session",
				b.Help().Desc, m.keys.Compose.Help().Key))
			return nil, true
		}
	}
	return nil, false
}

// SetImages shows images in protocol p (Model.SetImages).
func (a *Attach) SetImages(p media.Protocol) { a.inner.SetImages(p) }

// View draws the Model.
func (a *Attach) View() tea.View { return a.inner.View() }

// Close stops the waits and the Model. It is safe to call more than
// once.
func (a *Attach) Close() {
	a.stop()
	_ = a.inner.Close() // an attach has no link of its own to close
}
