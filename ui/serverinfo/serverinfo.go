// Package serverinfo is the server view (key i): what the server said of
// itself when the session opened — its name and version, the protocol
// version and era negotiated, what the link speaks and its encoding, its
// instructions and its capabilities exactly as sent.
package serverinfo

import (
	"encoding/json"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// Facts is what the view shows, read from a connected session.
type Facts struct {
	Server       mcp.Implementation
	Version      string // the protocol version negotiated
	Era          client.Era
	Link         client.LinkState
	Instructions string
	Capabilities json.RawMessage
}

// FactsOf reads the facts of s.
func FactsOf(s *client.Session) Facts {
	return Facts{Server: s.ServerInfo(), Version: s.ProtocolVersion(), Era: s.Era(), Link: s.LinkState(),
		Instructions: s.Instructions(), Capabilities: s.ServerCapabilities()}
}

// View is the server view: a scrollable page of Facts.
type View struct {
	st    *look.Styles
	nav   nav.Keys
	close key.Binding
	facts Facts
	err   error // why there are no facts (not connected)
	// title and text, when text is set, replace the facts: a page of
	// text of its own (Text).
	title, text string
	recording   string // the file the session is recorded to, or ""
	lines       []string
	w, h        int
	offset      int
}

var _ screen.Screen = (*View)(nil)

// Open returns the view of the host's session, or of why there is none.
func Open(h screen.Host) *View {
	v := &View{st: h.Styles(), nav: h.Nav(),
		close: key.NewBinding(key.WithKeys("esc", "i"), key.WithHelp("esc", "close"))}
	if s, err := h.Session(); err != nil {
		v.err = err
	} else {
		v.facts = FactsOf(s)
	}
	return v
}

// WithRecording has the view say that the session is recorded to path
// (none when path is "") and how to replay it.
func (v *View) WithRecording(path string) *View {
	v.recording, v.lines = path, nil
	return v
}

// Text returns a view of the same keys showing text (already sanitized)
// under title instead of the server's facts: the connection doctor's
// checklist when the TUI could not connect.
func Text(h screen.Host, title, text string) *View {
	return &View{st: h.Styles(), nav: h.Nav(), title: title, text: text,
		close: key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "close"))}
}

// Title names the server.
func (v *View) Title() string {
	if v.text != "" {
		return v.title
	}
	if v.err != nil {
		return "Server"
	}
	return strings.TrimSpace("Server · " + termtext.Line(v.facts.Server.Name+" "+v.facts.Server.Version))
}

// SetSize wraps the page for w×h.
func (v *View) SetSize(w, h int) {
	if w != v.w || v.lines == nil {
		v.lines = strings.Split(ansi.Wrap(v.page(), max(w, 1), " ,"), "\n")
	}
	v.w, v.h = w, h
	v.offset = min(v.offset, max(len(v.lines)-1, 0))
}

// Update scrolls, and closes on esc or i.
func (v *View) Update(msg tea.Msg) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	if key.Matches(k, v.close) {
		return nil, true
	}
	m, ok := nav.Of(k, v.nav, max(v.h-1, 1))
	if !ok {
		return screen.NotAKey(k), false
	}
	v.offset = m.Apply(v.offset, len(v.lines))
	return nil, false
}

// Render draws the lines from the offset in w×h.
func (v *View) Render(w, h int) string {
	v.SetSize(w, h)
	end := min(v.offset+h, len(v.lines))
	return strings.Join(v.lines[v.offset:end], "\n")
}

// Help lists the view's keys.
func (v *View) Help() help.KeyMap {
	scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓ pgup/pgdn", "scroll"))
	return keyhelp.Map{Short: []key.Binding{scroll, v.close}, Essential: []key.Binding{v.close}}
}

// page is the whole page before wrapping.
func (v *View) page() string {
	if v.text != "" {
		return v.text
	}
	var b strings.Builder
	row := func(name, value string) {
		if value != "" {
			b.WriteString(v.st.Ink.Muted.Paint(look.Cell(name, 14)) + termtext.Line(value) + "\n")
		}
	}
	if v.recording != "" {
		row("recording", v.recording)
		row("replay with", recordings.ReplayCommand(v.recording))
		b.WriteString("\n")
	}
	if v.err != nil {
		return b.String() + v.st.Ink.Muted.Paint("No server: "+v.err.Error()+".")
	}
	f := v.facts
	head := func(s string) { b.WriteString("\n" + v.st.Ink.Accent.Paint("── "+s+" ──") + "\n") }
	row("name", f.Server.Name)
	row("title", f.Server.Title)
	row("version", f.Server.Version)
	row("description", f.Server.Description)
	row("website", f.Server.WebsiteURL)
	row("protocol", f.Version)
	row("handshake", eraText(f.Era))
	row("speaks", speaks(f.Link.Dialect))
	row("encoding", f.Link.Encoding)
	row("link state", f.Link.State)
	row("transport", f.Link.Transport)
	row("session id", f.Link.SessionID)
	head("instructions")
	if f.Instructions == "" {
		b.WriteString(v.st.Ink.Muted.Paint("none") + "\n")
	} else {
		b.WriteString(termtext.Block(f.Instructions) + "\n")
	}
	head("capabilities")
	if len(f.Capabilities) == 0 {
		b.WriteString(v.st.Ink.Muted.Paint("none declared") + "\n")
	} else {
		b.WriteString(look.PrettyHighlighted(f.Capabilities, v.st) + "\n")
	}
	if d := deprecations(f); d != nil {
		head("deprecated")
		b.WriteString(v.st.Ink.Warn.Paint(strings.Join(d, "\n")) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// speaks says in words which family of messages the link carries.
func speaks(d mcp.Dialect) string {
	switch d {
	case mcp.DialectJSONRPC:
		return "JSON-RPC 2.0"
	case mcp.DialectMCP:
		return "MCP"
	case mcp.DialectMCPFlow:
		return "MCP-Flow (MCP over WebTransport)"
	case mcp.DialectInteraction:
		return "MCP with interactive sessions"
	case mcp.DialectStdioTemplates:
		return "MCP with template tools"
	case mcp.DialectGateway:
		return "MCP with gateway streams"
	}
	return ""
}

// eraText says what an era means for the session.
func eraText(e client.Era) string {
	switch e {
	case client.EraLegacy:
		return "initialize handshake, a session per connection"
	case client.EraModern:
		return "server/discover, stateless requests"
	}
	return ""
}
