package cli

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/proxy"
)

// lineWriter writes whole lines to a writer shared by several goroutines
// (trace, warnings, progress), so lines never interleave.
// After Close it drops what it is given, so a goroutine that outlives a run
// cannot write into the caller's stream.
type lineWriter struct {
	mu     sync.Mutex
	w      io.Writer
	closed bool
	// live says a live line (bench's progress) is drawn on w without its
	// newline: a line written now first erases it, and the live line's
	// next tick draws it again below.
	live bool
}

// Println writes s and a newline in one Write. Whatever server text s
// still holds is shown escaped (safeLine): a line never carries a
// terminal's escape sequence.
func (l *lineWriter) Println(s string) {
	s = safeLine(s)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	if l.live {
		s, l.live = "\r\x1b[K"+s, false
	}
	_, _ = io.WriteString(l.w, s+"\n")
}

// Close stops all further writes.
func (l *lineWriter) Close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
}

// traceSink prints one line per frame (--trace).
type traceSink struct {
	out *lineWriter
	// proxied says the frames are a proxied session's (mcpscope proxy):
	// "out" frames are a host's, decoded like the server's.
	proxied bool
}

// ReleasesUnheld is true: the sink reads a frame while Append runs and keeps
// none of its bytes.
func (traceSink) ReleasesUnheld() bool { return true }

// Append prints the frame's trace line.
func (t traceSink) Append(f *capture.Frame) uint64 {
	t.out.Println(t.line(f))
	return 0
}

// TraceLine renders a frame as one trace line: time, direction arrow,
// channel, size on the wire, and what the frame holds:
//
//	12:03:04.123 → control 85B request tools/call id=2
//	12:03:04.130 ← control 6B decode error: not a JSON-RPC message: …
//	12:03:04.131 ← stderr 23B "server log line"
//	12:03:04.132 → control 0B write failed: the notification above was not sent whole: …
func TraceLine(f *capture.Frame) string { return traceLineOf(f, false) }

// line is the trace line of f in the session the sink traces.
func (t traceSink) line(f *capture.Frame) string { return traceLineOf(f, t.proxied) }

// traceLineOf is TraceLine; proxied says "out" frames are a host's (a
// proxied session), which are read, not written, by mcpscope, and that
// marks of the proxy say what it did.
func traceLineOf(f *capture.Frame, proxied bool) string {
	arrow := "←"
	if f.Dir == capture.Out {
		arrow = "→"
	}
	head := fmt.Sprintf("%s %s %s %dB", f.Time.Format("15:04:05.000"), arrow, f.Chan, f.Size)
	var what string
	switch {
	case f.Err != nil && f.Dir == capture.Out && !proxied:
		// mcpscope decodes nothing it sends: the frame is a failed write.
		what = "write failed: " + oneLine(f.Err.Error())
	case f.Chan.Kind == capture.Proxy:
		what = "unreadable mark"
		if mk, ok := proxy.ParseMark(f); ok {
			what = oneLine(mk.Summary())
		}
	case f.Err != nil:
		what = "decode error: " + oneLine(f.Err.Error())
	case f.Msg != nil:
		what = MessageSummary(f.Msg)
	case f.Enc == proto.EncJSON && f.Chan.Kind == capture.Control && isToolsFrame(f.Raw):
		typ, _ := gateway.ToolsFrameType(f.Raw)
		what = oneLine(gateway.ToolsFrameSummary(typ)) + " " + preview(f.Raw, 60)
	case f.Enc == proto.EncText || f.Chan.Kind == capture.Stderr:
		what = preview(f.Raw, 60) + requestMetadata(f)
	}
	if what == "" {
		return head
	}
	return head + " " + what
}

// isToolsFrame reports whether raw is an unsolicited frame of seed 004's
// WebSocket dialect, such as its {"type":"ping"}.
func isToolsFrame(raw []byte) bool {
	_, ok := gateway.ToolsFrameType(raw)
	return ok
}

// requestMetadata lists, after the preview of a request head sent over
// HTTP, the 2026-07-28 headers that mirror its body (Mcp-Method, Mcp-Name
// and the Mcp-Param headers of a tool's arguments), which the preview
// cuts off: " · Mcp-Method: tools/call · Mcp-Param-Region: eu-west1".
func requestMetadata(f *capture.Frame) string {
	if f.Chan.Kind != capture.HTTP || f.Dir != capture.Out {
		return ""
	}
	var b strings.Builder
	for _, fd := range f.Fields {
		name := strings.ToLower(fd.Name)
		if fd.Kind == proto.FieldHeader && (name == "mcp-method" || name == "mcp-name" || strings.HasPrefix(name, "mcp-param-")) {
			b.WriteString(" · " + oneLine(fd.Name) + ": " + oneLine(fd.Value))
		}
	}
	return b.String()
}

// MessageSummary names a JSON-RPC message in a few words: its kind, method,
// id, and for an error the code and message.
func MessageSummary(m *jsonrpc.Message) string {
	id := "null"
	if m.ID != nil {
		id = m.ID.String()
	}
	switch m.Kind() {
	case jsonrpc.KindRequest:
		return fmt.Sprintf("request %s id=%s", oneLine(m.Method), id)
	case jsonrpc.KindNotification:
		return "notification " + oneLine(m.Method)
	case jsonrpc.KindResult:
		return "result id=" + id
	case jsonrpc.KindError:
		return fmt.Sprintf("error id=%s %d %s", id, m.Error.Code, oneLine(m.Error.Message))
	}
	return "invalid message"
}

// preview quotes the start of raw (without its line ending), at most n
// runes (n bytes when raw is not UTF-8), marking a cut with "…". Controls
// and invalid bytes are shown escaped.
func preview(raw []byte, n int) string {
	b := bytes.TrimRight(raw, "\r\n")
	s := string(b)
	if utf8.ValidString(s) {
		return quote(termtext.Ellipsis(s, n))
	}
	if len(b) > n {
		return quote(string(b[:n])) + "…"
	}
	return quote(s)
}

// maxTracedProbes bounds the probe exchanges a trace remembers.
const maxTracedProbes = 64

// probeAnswered follows the probes sent over HTTP (server/discover,
// capabilities): for an error with a null id on the exchange that carried
// one (the HTTP 400 a server answers before a session exists), it is
// " (answers the server/discover probe)", so the line reads as the
// probe's outcome; "" for any other frame.
func (s *streamTrace) probeAnswered(f *capture.Frame) string {
	m := f.Msg
	if !strings.Contains(f.Conn, " POST ") {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case f.Dir == capture.Out && (m.Method == mcp.MethodDiscover || m.Method == mcp.MethodCapabilities):
		if s.probes == nil || len(s.probes) >= maxTracedProbes {
			s.probes = map[string]string{}
		}
		s.probes[f.Conn] = m.Method
	case f.Dir == capture.In && m.Kind() == jsonrpc.KindError && (m.ID == nil || m.ID.IsNull()):
		if method, ok := s.probes[f.Conn]; ok {
			return " (answers the " + method + " probe)"
		}
	}
	return ""
}
