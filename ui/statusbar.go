package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
)

// statusLine holds the messages of the status bar: the latest note and the
// latest error.
type statusLine struct {
	message string
	err     string
	path    bool // the note ends with a file's path: cut in its middle
}

// note sets the latest note.
func (s *statusLine) note(msg string) { s.message, s.path = msg, false }

// notePath sets the latest note, one that ends with a file's path.
func (s *statusLine) notePath(msg string) { s.message, s.path = msg, true }

// clear forgets the note and the error, but for an error among standing
// that still holds (the connection's failure, why it ended): the next key
// is the next action, and what the last one said no longer stands beside
// it.
func (s *statusLine) clear(standing ...error) {
	s.message = ""
	for _, e := range standing {
		if e != nil && s.err == look.OneLine(e.Error()) {
			return
		}
	}
	s.err = ""
}

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
	if m.attach != nil {
		return append(m.attach.facts(), storeFacts(m.cfg.Store.Stats(), m.idx.skipped)...)
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
	if m.cfg.Recording != "" {
		// First, where no width cuts it.
		rec := "● REC" // the file's name is long: i and the help say it
		if e, ok := m.cfg.Tap.(interface{ Err() error }); ok && e.Err() != nil {
			rec = "REC stopped: " + termtext.Line(e.Err().Error())
		}
		parts = append(parts, rec)
	}
	parts = append(parts, state)
	if via != "" {
		parts = append(parts, transportName(via))
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
		if n := s.Tally().UnsentAnswers; n > 0 {
			parts = append(parts, plural.Count(n, "answer", "answers")+" not sent")
		}
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
// latest error and the latest note, the messages before the facts when
// the width is short (fitStatus). With own, messages that do not fit
// whole beside the lead of the facts are drawn instead on a line of their
// own, returned as above, for the line over the bar.
func (m *Model) renderStatus(w int, own bool) (bar, above string) {
	st := m.styles
	parts := m.statusParts()
	for i, p := range parts {
		parts[i] = look.OneLine(p)
	}
	lead := 1
	if m.replay == nil && m.cfg.Recording != "" {
		lead = 2 // ● REC and the state
	}
	var segs, msgs []statusSegment
	if m.cfg.Notice != "" {
		segs = append(segs, statusSegment{text: look.OneLine(m.cfg.Notice), style: st.Notice})
	}
	if seg, ok := m.findingsSegment(); ok {
		segs = append(segs, seg)
	}
	if m.status.err != "" {
		msgs = append(msgs, statusSegment{text: m.status.err, style: st.StatusError})
	}
	if m.status.message != "" {
		msgs = append(msgs, statusSegment{text: look.OneLine(m.status.message), style: st.StatusLabel, middle: m.status.path})
	}
	all := append(segs, msgs...)
	if !own || len(msgs) == 0 || fitsBeside(parts, lead, all, w) {
		return fitStatus(st.StatusBar, parts, lead, all, w), ""
	}
	return fitStatus(st.StatusBar, parts, lead, segs, w), look.FitLine(fitSegments(msgs, w), w)
}

// dialectName is how the status bar names a transport's dialect.
func dialectName(d mcp.Dialect) string {
	if d == mcp.DialectMCPFlow {
		return "MCP-Flow"
	}
	return "MCP"
}
