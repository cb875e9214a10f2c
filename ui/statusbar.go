package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/plural"
	"github.com/mcpscope/mcpscope/internal/termtext"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/ui/look"
)

// statusLine holds the messages of the status bar: the latest note and the
// latest error.
type statusLine struct {
	message string
	err     string
}

// note sets the latest note.
func (s *statusLine) note(msg string) { s.message = msg }

// setError sets the latest error.
func (s *statusLine) setError(err error) {
	if err != nil {
		s.err = look.OneLine(err.Error())
	}
}

// statusParts are the facts the status bar shows, in order.
func (m *Model) statusParts() []string {
	if m.replay != nil {
		return append(m.replay.facts(), storeFacts(m.cfg.Store.Stats(), m.idx.skipped)...)
	}
	c := m.conn
	var parts []string
	state := "not connected"
	switch {
	case c.link.Transport == nil && c.gen > 0 && c.down:
		state = "no connection"
	case c.link.Transport != nil:
		state = "connecting"
		if c.ready {
			state = "connected"
		}
		if c.down {
			state = "closed"
		}
	}
	encoding, via, session := "", "", ""
	if c.link.Transport != nil {
		ls := client.LinkStateOf(c.link.Transport)
		if ls.State != "" {
			state = ls.State
		}
		state = dialectName(ls.Dialect) + " " + state
		encoding, via, session = ls.Encoding, ls.Transport, ls.SessionID
	}
	parts = append(parts, state)
	if via != "" {
		parts = append(parts, via)
	}
	if c.connected != "" {
		parts = append(parts, c.connected)
	}
	if encoding != "" {
		parts = append(parts, "enc "+encoding)
	}
	if s := c.link.Session; s != nil && c.ready {
		if info := s.ServerInfo(); info.Name != "" {
			parts = append(parts, strings.TrimSpace(info.Name+" "+info.Version))
		}
		if session != "" {
			parts = append(parts, "session "+ansi.Truncate(termtext.Line(session), 13, "…"))
		}
		parts = append(parts, fmt.Sprintf("%d in flight", s.InFlight()))
		if n := s.RefusedServerRequests(); n > 0 {
			parts = append(parts, plural.Count(n, "server request", "server requests")+" refused (busy)")
		}
		if u, ok := c.link.Transport.(interface{ UnsentAnswers() uint64 }); ok && u.UnsentAnswers() > 0 {
			parts = append(parts, plural.Count(u.UnsentAnswers(), "answer", "answers")+" not sent")
		}
	}
	if m.cfg.Recording != "" {
		rec := "● REC" // the file's name is long; ctrl+s saves a copy where the user says
		if e, ok := m.cfg.Tap.(interface{ Err() error }); ok && e.Err() != nil {
			rec = "REC stopped: " + termtext.Line(e.Err().Error())
		}
		parts = append(parts, rec)
	}
	parts = append(parts, storeFacts(m.cfg.Store.Stats(), m.idx.skipped)...)
	return parts
}

// storeFacts says what the store dropped or capped, when it did.
func storeFacts(s capture.Stats, skipped uint64) []string {
	var out []string
	if s.DroppedBytes > 0 && (s.Stripped > 0 || s.Evicted > 0 || s.Truncated > 0) {
		out = append(out, "dropped "+look.ByteSize(s.DroppedBytes))
	}
	if s.Evicted > 0 {
		out = append(out, plural.Count(s.Evicted, "frame", "frames")+" evicted")
	}
	if s.Truncated > 0 {
		out = append(out, plural.Count(s.Truncated, "frame", "frames")+" capped")
	}
	if skipped > 0 {
		out = append(out, plural.Count(skipped, "frame", "frames")+" not indexed")
	}
	return out
}

// renderStatus draws the status bar: the facts, the standing notice, the
// latest error and the latest note.
func (m *Model) renderStatus(w int) string {
	st := m.styles
	line := st.StatusBar.Render(" " + look.OneLine(strings.Join(m.statusParts(), " · ")) + " ")
	if m.cfg.Notice != "" {
		line += st.Notice.Render(" " + look.OneLine(m.cfg.Notice) + " ")
	}
	if m.status.err != "" {
		line += st.StatusError.Render(" " + m.status.err + " ")
	}
	if m.status.message != "" {
		line += st.StatusLabel.Render(" " + look.OneLine(m.status.message) + " ")
	}
	if n := ansi.StringWidth(line); n < w {
		return line + st.StatusBar.Render(strings.Repeat(" ", w-n))
	}
	return ansi.Truncate(line, w, "…")
}

// dialectName is how the status bar names a transport's dialect.
func dialectName(d proto.Dialect) string {
	if d == proto.DialectMCPFlow {
		return "MCP-Flow"
	}
	return "MCP"
}
