package stdio

import (
	"io"
	"strings"
	"sync"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// stderrTail keeps the last lines of the server's stderr for the exit error.
type stderrTail struct {
	mu    sync.Mutex
	lines []string // ring storage
	next  int      // where the next line goes
	full  bool     // the ring has wrapped
}

func newStderrTail(n int) *stderrTail { return &stderrTail{lines: make([]string, n)} }

// add keeps line, dropping the oldest when the ring is full.
func (t *stderrTail) add(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines[t.next] = line
	t.next++
	if t.next == len(t.lines) {
		t.next, t.full = 0, true
	}
}

// snapshot returns the kept lines, oldest first.
func (t *stderrTail) snapshot() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.full {
		return append([]string(nil), t.lines[:t.next]...)
	}
	return append(append([]string(nil), t.lines[t.next:]...), t.lines[:t.next]...)
}

// readStderr reports each stderr line as a text frame and keeps the tail.
// A line over maxStderrLine is cut: its head is kept and the frame says so.
func (t *Transport) readStderr(r io.Reader) {
	defer close(t.stderrDone)
	ch := capture.Channel{Kind: capture.Stderr}
	lr := newLineReader(r, maxStderrLine, maxStderrLine)
	for {
		ln, err := lr.next()
		if err != nil {
			return
		}
		var f *capture.Frame
		text := ""
		if ln.tooLong {
			f = tooLongFrame(ch, proto.EncText, ln, maxStderrLine)
			text = string(ln.raw) + " [line cut]"
		} else {
			body, fields := splitLine(ln.raw)
			f = &capture.Frame{Chan: ch, Raw: ln.raw, Size: len(ln.raw), Fields: fields, Enc: proto.EncText}
			text = string(body)
		}
		t.tail.add(strings.TrimRight(text, "\r"))
		t.report(capture.In, f)
	}
}
