package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
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
func (d driver) Dialect() proto.Dialect { return d.m.conn.dialect }

// Styles are the root's styles.
func (d driver) Styles() *look.Styles { return d.m.styles }

// Nav are the root's navigation keys.
func (d driver) Nav() nav.Keys { return d.m.keys.Keys }

// Note shows msg in the status line.
func (d driver) Note(msg string) { d.m.status.note(msg) }

// CancelRequest cancels the request with id on the live session.
func (d driver) CancelRequest(id proto.ID) tea.Cmd {
	s := d.m.conn.link.Session
	if s == nil {
		return nil
	}
	return cancelCmd(s, id)
}

// Progress returns the live state of the request with id that the UI
// sent on the current connection, as the index read it from the capture.
func (d driver) Progress(id proto.ID) (screen.ProgressState, bool) {
	return d.m.idx.progressState(id, d.m.conn.gen)
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
	m.overlay = o
	m.sizeOverlay()
	return nil
}

// sizeOverlay gives the open overlay the body size minus its title line.
func (m *Model) sizeOverlay() {
	if m.overlay != nil {
		m.overlay.SetSize(m.width, max(m.height-chromeLines-1, 0))
	}
}

// updateOverlay forwards msg to the open overlay and drops it when it
// closes.
func (m *Model) updateOverlay(msg tea.Msg) tea.Cmd {
	if m.overlay == nil {
		return nil
	}
	cmd, closed := m.overlay.Update(msg)
	if closed {
		m.overlay = nil
		m.syncSelection()
	}
	return cmd
}
