package ui

import (
	"fmt"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// connection is the current link and what the UI knows of it.
type connection struct {
	link      Link
	gen       int // 1 for the first connection, one more per reconnect
	dialect   mcp.Dialect
	ready     bool   // Connect succeeded
	down      bool   // the transport went away
	connected string // version and handshake (client.Handshake), or "" before the handshake
	failure   error  // why this connection could not be set up or connected
	ended     error  // why the transport of a connection went away, shown until a reconnect
}

// Messages of the connection's life.
type (
	// connectedMsg says how the Connect of link generation gen ended.
	connectedMsg struct {
		gen int
		err error
	}
	// linkDownMsg says the transport of generation gen went away.
	linkDownMsg struct {
		gen int
		err error
	}
	// closedMsg says the link was closed for quitting.
	closedMsg struct{}
)

// dial builds a new link through the Dialer and starts connecting it; the
// frames of every generation after the first carry the connection name
// with "#gen", so that request ids of two sessions stay apart.
func (m *Model) dial() tea.Cmd {
	m.conn.gen++
	gen := m.conn.gen
	m.interactive.NewConnection(gen)
	var tap capture.Tap = m.cfg.Store
	if m.cfg.Tap != nil {
		tap = capture.Serialized(capture.Tee(m.cfg.Store, m.cfg.Tap).(capture.Tap))
	}
	suffix := ""
	if gen > 1 {
		suffix = "#" + strconv.Itoa(gen)
	}
	link, err := m.cfg.Dial(capture.OnConn(newYieldingTap(tap), suffix))
	if err != nil {
		err = fmt.Errorf("could not set up the connection: %w", err)
		m.conn = connection{gen: gen, down: true, dialect: m.conn.dialect, failure: err}
		m.status.setError(err)
		return m.diagnose(gen, err)
	}
	state := client.LinkStateOf(link.Transport)
	dialect := state.Dialect
	m.conn = connection{link: link, gen: gen, dialect: dialect}
	m.traffic.dialect, m.detail.dialect = dialect, dialect
	m.streams.link = streamKindOf(state)
	m.setPanes(panesOf(state))
	m.status.note("connecting to " + m.cfg.Target)
	ctx := m.ctx
	return tea.Batch(
		func() tea.Msg {
			// Connect bounds itself by the session's limits (--timeout,
			// --max-time), the transport's start as the CLI's is.
			return connectedMsg{gen: gen, err: link.Session.Connect(ctx)}
		},
		func() tea.Msg {
			<-link.Transport.Done()
			return linkDownMsg{gen: gen, err: link.Transport.Err()}
		},
	)
}

// connected handles the end of a Connect.
func (m *Model) connected(msg connectedMsg) tea.Cmd {
	if msg.gen != m.conn.gen {
		return nil
	}
	if msg.err != nil {
		cause := msg.err
		if s := m.conn.link.Session; s == nil || s.ProtocolVersion() == "" {
			cause = client.BeforeHandshake(cause) // a server that exited never answered
		}
		m.conn.failure = fmt.Errorf("could not connect to %s: %w", m.cfg.Target, cause)
		m.status.setError(m.conn.failure)
		return tea.Batch(closeCmd(m.conn.link, nil), m.diagnose(msg.gen, msg.err))
	}
	s := m.conn.link.Session
	m.conn.ready = true
	// A dialect with no handshake (tools-http, tools-ws) negotiated no
	// era and no version: "no handshake".
	m.conn.connected = client.Handshake(s.Era(), s.ProtocolVersion())
	m.status.note("connected")
	if l, ok := m.cfg.Tap.(interface {
		Link(transport, era, protocol string)
	}); ok {
		l.Link(client.LinkStateOf(m.conn.link.Transport).Transport, s.Era().String(), s.ProtocolVersion())
	}
	cmds := make([]tea.Cmd, 0, len(m.cfg.OnConnect)+1)
	cmds = append(cmds, m.askLogLevel(s))
	for _, r := range m.cfg.OnConnect {
		cmds = append(cmds, m.send(r))
	}
	return tea.Batch(cmds...)
}

// ConnectError is why the last connection could not be set up or
// connected, or nil when it connected or is still connecting: the TUI's
// caller exits with it once the user quits.
func (m *Model) ConnectError() error { return m.conn.failure }

// linkDown handles the end of a transport.
func (m *Model) linkDown(msg linkDownMsg) {
	if msg.gen != m.conn.gen {
		return
	}
	m.conn.down = true
	if msg.err != nil {
		m.conn.ended = fmt.Errorf("the connection ended: %w", msg.err)
		m.status.setError(m.conn.ended)
	} else if !m.quitting {
		m.status.note("the connection was closed")
	}
}

// reconnect closes the current link in the background and dials a new
// one; the store keeps the frames of the old one.
func (m *Model) reconnect() tea.Cmd {
	if m.cfg.Dial == nil {
		return nil
	}
	old := m.conn.link
	m.conn.link = Link{}
	return tea.Batch(closeCmd(old, nil), m.dial())
}

// closeCmd closes a link off the UI goroutine and then returns then (nil:
// no message).
func closeCmd(l Link, then tea.Msg) tea.Cmd {
	return func() tea.Msg {
		_ = closeLink(l)
		return then
	}
}

// closeLink closes the session of a link (which closes its transport).
func closeLink(l Link) error {
	switch {
	case l.Session != nil:
		return l.Session.Close()
	case l.Transport != nil:
		return l.Transport.Close()
	}
	return nil
}
