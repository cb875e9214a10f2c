package screentest

import (
	"context"
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// Host is a screen.Host for a screen under test: the root's defaults (MCP,
// dark styles, the default navigation keys) and no session until one is
// set. It keeps the notes and the cancellations it is given.
type Host struct {
	Sess    *client.Session // nil: not connected
	Ctx     context.Context
	Dial    mcp.Dialect
	St      *look.Styles
	Keys    nav.Keys
	Notes   []string
	Cancels []jsonrpc.ID
	Shown   []jsonrpc.ID // the requests whose frames ShowFrames was asked for
	// Progresses are what Progress returns, by the request id's
	// jsonrpc.ID.Key.
	Progresses map[string]screen.ProgressState
	// Stream is what Streamer returns (nil: the link cannot stream).
	Stream screen.StreamFunc
	// Schemas are what OutputSchema returns, by tool name.
	Schemas map[string]json.RawMessage
}

var _ screen.Host = (*Host)(nil)

// NewHost returns a Host with the root's defaults.
func NewHost() *Host {
	st := look.NewStyles(true)
	return &Host{Ctx: context.Background(), Dial: mcp.DialectMCP, St: &st, Keys: nav.DefaultKeys()}
}

// Session returns Sess, or screen.ErrNotConnected.
func (h *Host) Session() (*client.Session, error) {
	if h.Sess == nil {
		return nil, screen.ErrNotConnected
	}
	return h.Sess, nil
}

// Streamer returns Stream.
func (h *Host) Streamer() screen.StreamFunc { return h.Stream }

// OutputSchema returns Schemas[tool].
func (h *Host) OutputSchema(tool string) json.RawMessage { return h.Schemas[tool] }

// Context returns Ctx.
func (h *Host) Context() context.Context { return h.Ctx }

// Dialect returns Dial.
func (h *Host) Dialect() mcp.Dialect { return h.Dial }

// Styles returns St.
func (h *Host) Styles() *look.Styles { return h.St }

// Nav returns Keys.
func (h *Host) Nav() nav.Keys { return h.Keys }

// Note keeps msg.
func (h *Host) Note(msg string) { h.Notes = append(h.Notes, msg) }

// CancelRequest keeps id and cancels the request on Sess.
func (h *Host) CancelRequest(id jsonrpc.ID) tea.Cmd {
	h.Cancels = append(h.Cancels, id)
	s := h.Sess
	if s == nil {
		return nil
	}
	return func() tea.Msg { return s.Cancel(id, screen.CancelReason) }
}

// ShowFrames keeps id.
func (h *Host) ShowFrames(id jsonrpc.ID) tea.Cmd {
	h.Shown = append(h.Shown, id)
	return nil
}

// Progress returns the state Progresses holds for id.
func (h *Host) Progress(id jsonrpc.ID) (screen.ProgressState, bool) {
	s, ok := h.Progresses[id.Key()]
	return s, ok
}

// View draws s as the root draws an open screen: its title line (made safe
// to print) over its body of w×h, then the host's last note.
func (h *Host) View(s screen.Screen, w, bodyH int) string {
	note := ""
	if n := len(h.Notes); n > 0 {
		note = h.Notes[n-1]
	}
	return look.Cell(" "+s.Title(), w) + "\n" + s.Render(w, bodyH) + "\n" + look.Cell(note, w)
}
