package ui

import (
	"encoding/hex"
	"errors"
	"fmt"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// ErrorMsg reports an error from outside the UI (for example a question
// from the server the --answers file does not cover), or from a screen;
// it is shown in the status bar.
type ErrorMsg = screen.ErrorMsg

// Messages of the actions.
type (
	// cancelDoneMsg says how a cancellation went.
	cancelDoneMsg struct {
		id  string
		err error
	}
)

// send sends r on the current session; the result comes back as a
// screen.CallDoneMsg. The frames show up in the panes as they are captured.
func (m *Model) send(r Request) tea.Cmd {
	s := m.conn.link.Session
	if s == nil || !m.conn.ready || m.conn.down {
		m.status.setError(fmt.Errorf("%s was not sent: not connected", r.Method))
		return nil
	}
	ctx := m.ctx
	return func() tea.Msg {
		res, err := s.Call(ctx, r.Method, r.Params, screen.AskProgress())
		return screen.CallDoneMsg{Method: r.Method, Result: res, Err: err}
	}
}

// cancelSelected cancels the client request the selected frame belongs
// to or names (a progress notification, a cancellation): the session
// sends $/cancel on MCP-Flow and notifications/cancelled on MCP. A frame
// of a request the server sent says so: only the server can cancel it.
func (m *Model) cancelSelected() tea.Cmd {
	f, ok := m.traffic.selected()
	if !ok {
		m.status.setError(errors.New("nothing to cancel: no frame is selected"))
		return nil
	}
	k, id, ok := requestOf(f)
	if !ok {
		m.status.setError(errors.New("nothing to cancel: the selected frame belongs to no client request"))
		return nil
	}
	if k.fromServer {
		what := "request " + id.String()
		if c, known := m.idx.calls[k]; known && c.method != "" {
			what += " (" + c.method + ")"
		}
		m.status.setError(fmt.Errorf("nothing to cancel: frame %d is of the server's %s", f.Seq, what))
		return nil
	}
	s := m.conn.link.Session
	if s == nil {
		m.status.setError(errors.New("nothing to cancel: not connected"))
		return nil
	}
	return cancelCmd(s, id)
}

// cancelCmd cancels the request with id on s; cancelDoneMsg says how
// that went.
func cancelCmd(s *client.Session, id jsonrpc.ID) tea.Cmd {
	return func() tea.Msg { return cancelDoneMsg{id: id.String(), err: s.Cancel(id, screen.CancelReason)} }
}

// cancelDone reports a cancellation.
func (m *Model) cancelDone(msg cancelDoneMsg) {
	if msg.err != nil {
		m.status.setError(fmt.Errorf("cancelling request %s: %w", msg.id, msg.err))
		return
	}
	m.status.note("cancelled request " + msg.id)
}

// maxCopy is how many bytes of a frame y copies at most: the raw bytes
// (sent as twice as many hex digits) or the JSON text. The clipboard is
// written with one OSC 52 sequence, which a terminal must buffer whole; a
// larger frame is copied as its first maxCopy bytes and the status line
// says so.
const maxCopy = 1 << 20

// copySelected copies the selected message as JSON, or in the hex pane its
// raw bytes as hex, to the clipboard with OSC 52, at most maxCopy bytes of
// it.
func (m *Model) copySelected() tea.Cmd {
	f, ok := m.traffic.selected()
	if !ok {
		m.status.setError(errors.New("nothing to copy: no frame is selected"))
		return nil
	}
	if m.focus == paneHex || f.Chan.Kind == capture.Stream || f.Chan.Kind == capture.Datagram {
		if len(f.Raw) == 0 {
			m.status.setError(errNoBytes)
			return nil
		}
		raw := f.Raw[:min(len(f.Raw), maxCopy)]
		m.status.note(copiedNote(len(raw), len(f.Raw), f.Seq, " as hex"))
		return tea.SetClipboard(hex.EncodeToString(raw))
	}
	text, err := messageJSON(f)
	if err != nil {
		m.status.setError(fmt.Errorf("copying frame %d: %w", f.Seq, err))
		return nil
	}
	head := text
	if len(head) > maxCopy {
		cut := maxCopy
		for cut > 0 && !utf8.RuneStart(head[cut]) {
			cut--
		}
		head = head[:cut]
	}
	m.status.note(copiedNote(len(head), len(text), f.Seq, ""))
	return tea.SetClipboard(string(head))
}

// copiedNote says what y copied: all of a frame, or the first n of its
// total bytes.
func copiedNote(n, total int, seq uint64, as string) string {
	if n == total {
		return fmt.Sprintf("copied %s of frame %d%s", look.ByteSize(int64(n)), seq, as)
	}
	return fmt.Sprintf("copied the first %s of %s of frame %d%s (a copy is cut at %s)",
		look.ByteSize(int64(n)), look.ByteSize(int64(total)), seq, as, look.ByteSize(maxCopy))
}
