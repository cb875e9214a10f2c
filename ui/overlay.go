package ui

import (
	"context"
	"errors"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
)

// overlay is a screen that takes over the body of the window and the keys
// until it closes: the explorer of tools, resources and prompts, the raw
// request composer, and the questions of interactive servers. The root
// keeps capturing and refreshing the panes underneath.
type overlay interface {
	// Title is the overlay's title line.
	Title() string
	// SetSize gives the overlay its body size.
	SetSize(w, h int)
	// Update handles a key, or any other message while the overlay is
	// open (its own asynchronous results included). closed says the
	// overlay is done and the root should drop it.
	Update(msg tea.Msg) (cmd tea.Cmd, closed bool)
	// Render draws the body in w×h.
	Render(w, h int) string
	// Help is what the help line shows while the overlay is open.
	Help() help.KeyMap
}

// errNotConnected is what an overlay reports when it needs the session
// and there is none.
var errNotConnected = errors.New("not connected")

// driver is what overlays may use of the root: the live session and the
// model's context, which ends when the UI closes.
type driver struct {
	m *Model
}

// session returns the connected session, or errNotConnected.
func (d driver) session() (*client.Session, error) {
	c := d.m.conn
	if c.link.Session == nil || !c.ready || c.down {
		return nil, errNotConnected
	}
	return c.link.Session, nil
}

// context ends when the UI closes.
func (d driver) context() context.Context { return d.m.ctx }

// dialect is the dialect of the current connection (for error-code names).
func (d driver) dialect() proto.Dialect { return d.m.conn.dialect }

// dark reports whether the dark styles are in use.
func (d driver) dark() bool { return d.m.styles.Dark }

// openOverlay shows o over the panes. While the server's questions are
// on screen, o opens underneath them and shows once they are answered.
func (m *Model) openOverlay(o overlay) tea.Cmd {
	if h, ok := m.overlay.(*questionHost); ok && len(h.queue) > 0 {
		h.under = o
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
