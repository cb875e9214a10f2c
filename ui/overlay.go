package ui

import (
	"context"
	"encoding/json"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/compose"
	"github.com/mcpscope/mcpscope/ui/explore"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
	"github.com/mcpscope/mcpscope/ui/question"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// driver is the root's screen.Host: the live session and the model's
// context, which ends when the UI closes.
type driver struct {
	m *Model
}

var _ screen.Host = driver{}

// Session returns the connected session, or screen.ErrNotConnected.
func (d driver) Session() (*client.Session, error) {
	c := d.m.conn
	if c.link.Session == nil || !c.ready || c.down {
		return nil, screen.ErrNotConnected
	}
	return c.link.Session, nil
}

// Context ends when the UI closes.
func (d driver) Context() context.Context { return d.m.ctx }

// Dialect is the dialect of the current connection (for error-code names).
func (d driver) Dialect() mcp.Dialect { return d.m.conn.dialect }

// Styles are the root's styles.
func (d driver) Styles() *look.Styles { return d.m.styles }

// Nav are the root's navigation keys.
func (d driver) Nav() nav.Keys { return d.m.keys.Keys }

// Note shows msg in the status line.
func (d driver) Note(msg string) { d.m.status.note(msg) }

// CancelRequest cancels the request with id on the live session.
func (d driver) CancelRequest(id jsonrpc.ID) tea.Cmd {
	s := d.m.conn.link.Session
	if s == nil {
		return nil
	}
	return cancelCmd(s, id)
}

// ShowFrames filters the traffic to the request's frames and gives the
// traffic pane the keys. The server requests that arrive while it runs,
// and the requests the user drives after it, join the filter (#7 #9):
// what the user drives next shows beside what they looked at, while the
// rest of the traffic stays out until esc clears the filter.
func (d driver) ShowFrames(id jsonrpc.ID) tea.Cmd {
	m := d.m
	m.setFocus(paneTraffic)
	if m.overlay != nil && !m.wireFront {
		m.flipWire()
	}
	return m.showFilter(callFilter(id), true)
}

// Progress returns the live state of the request with id that the UI
// sent on the current connection, as the index read it from the capture.
func (d driver) Progress(id jsonrpc.ID) (screen.ProgressState, bool) {
	return d.m.idx.progressState(id, d.m.conn.gen)
}

// Streamer runs gateway streams beside the live session, or is nil.
func (d driver) Streamer() screen.StreamFunc {
	if _, err := d.Session(); err != nil {
		return nil
	}
	return d.m.conn.link.Stream
}

// OutputSchema is the outputSchema the current connection's tools/list
// declared for tool, as the index read it, or nil.
func (d driver) OutputSchema(tool string) json.RawMessage {
	t := &d.m.idx.tools
	if t.byTool == nil || connGen(t.conn) != d.m.conn.gen {
		return nil
	}
	return t.byTool[tool]
}

// Injector is how the composer's messages reach a live proxied session,
// or nil when there is none.
func (d driver) Injector() screen.InjectFunc { return d.m.injector() }

// InjectedAnswer is the answer to the request injected as id, once the
// proxy captured it and the index read it.
func (d driver) InjectedAnswer(id string) (*jsonrpc.Message, bool) {
	seq, ok := d.m.idx.injected.answerSeq(id)
	if !ok {
		return nil, false
	}
	fs := d.m.cfg.Store.Window(seq, 1)
	if len(fs) == 0 || fs[0].Seq != seq || fs[0].Msg == nil {
		return nil, false // no longer held, or not a message
	}
	return fs[0].Msg, true
}

// openComposer opens the raw request composer.
func (m *Model) openComposer() tea.Cmd {
	c, cmd := compose.Open(driver{m}, &m.composed)
	m.openOverlay(c)
	return cmd
}

// openExplorer opens the explorer of tools, resources, templates and
// prompts.
func (m *Model) openExplorer() tea.Cmd {
	x, cmd := explore.Open(driver{m}, &m.interactive)
	x.SetBenchRunner(m.benchRun)
	m.openOverlay(x)
	return cmd
}

// openOverlay shows o over the panes. While the server's questions are
// on screen, o opens underneath them and shows once they are answered.
func (m *Model) openOverlay(o screen.Screen) tea.Cmd {
	if question.OpenUnder(m.overlay, o) {
		m.sizeOverlay()
		return nil
	}
	m.setOverlay(o)
	return nil
}

// setOverlay makes o (nil for none) the open screen, in front with the
// keys, and lays the body out again around it.
func (m *Model) setOverlay(o screen.Screen) {
	m.overlay, m.wireFront = o, false
	m.setSize(m.width, m.height)
}

// driving is how the open screen, if any, shares the body with the panes.
func (m *Model) driving() driving {
	return drivingFor(m.overlay != nil, m.wireFront, m.width, m.height)
}

// flipWire moves the keys between the open screen and the panes that show
// the wire; on a narrow terminal the body flips with them.
func (m *Model) flipWire() {
	m.wireFront = !m.wireFront
	m.setSize(m.width, m.height)
}

// wireHasKeys reports whether the panes take the keys: always without a
// screen, and with one once flipped to the wire.
func (m *Model) wireHasKeys() bool { return m.overlay == nil || m.wireFront }

// sizeOverlay gives the open overlay its area minus its title line: the
// whole body, or its share of it beside the wire.
func (m *Model) sizeOverlay() {
	if m.overlay == nil {
		return
	}
	w, h := m.width, max(m.height-chromeLines, 0)
	if s := m.layout.screen; s.h > 0 {
		w, h = s.w, s.h
	}
	m.overlay.SetSize(w, max(h-1, 0))
}

// updateOverlay forwards msg to the open overlay and drops it when it
// closes.
func (m *Model) updateOverlay(msg tea.Msg) tea.Cmd {
	if m.overlay == nil {
		return nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && (m.helpKey(k, m.screenKeys().Typing) || m.showHelp) {
		return nil // the help covers the screen: its keys wait
	}
	cmd, closed := m.overlay.Update(msg)
	if closed {
		m.setOverlay(nil)
	}
	return cmd
}

// screenKey routes a key while a screen is open: the wire key flips
// between the screen and the panes; the other keys go to whichever is in
// front.
func (m *Model) screenKey(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, m.keys.Wire):
		m.flipWire()
		return nil
	case !m.wireFront:
		return m.updateOverlay(k)
	}
	return m.wireKey(k)
}

// wireKey handles a key for the panes while a screen is open behind them:
// esc with nothing to go back from returns to the screen, and the keys
// that would open another screen say to close this one first.
func (m *Model) wireKey(k tea.KeyPressMsg) tea.Cmd {
	km := m.keys
	switch {
	case m.filtering || m.showHelp:
		return m.handleKey(k)
	case key.Matches(k, km.Back) && m.idx.filter == nil && m.focus == paneTraffic:
		m.flipWire()
		return nil
	case key.Matches(k, km.Explore, km.Compose, km.Roots, km.Server, km.Bench, km.ListTools, km.ReadFile, km.Analyze, km.Tone):
		name, _, _ := strings.Cut(look.OneLine(m.overlay.Title()), " · ") // "Explorer", not its whole title: the advice fits
		m.status.note(name + " is open: " + km.Wire.Help().Key + " returns to it")
		return nil
	}
	return m.handleKey(k)
}
