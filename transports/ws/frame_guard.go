package ws

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"net"
	"strconv"
	"sync"

	"github.com/coder/websocket"
)

// frameRefusal is why frameGuard refused the server's frames: the close
// code mcpscope closes with, the reason the close frame gives (a close
// frame holds at most 123 bytes of it), the reason in full and what the
// frame's head said.
type frameRefusal struct {
	Code   websocket.StatusCode
	Wire   string
	Reason string
	Head   string
}

func (r *frameRefusal) Error() string { return r.Reason }

// headCap bounds the HTTP answer frameGuard looks through for the 101;
// past it the guard steps aside, and net/http refuses such a head: the
// dial's MaxResponseHeaderBytes is this same cap.
const headCap = 64 << 10

// frameGuard reads the connection a WebSocket runs on and checks, before
// coder/websocket reads them, the head of every frame the server sends: a
// masked frame (RFC 6455 §5.1: a client closes the connection on one)
// is refused with 1002, a data frame announcing more than limit bytes with
// 1009, at once rather than once limit bytes arrived (they may never).
// The bytes before a refused frame are read as usual; the refusal is the
// error of the next Read. One connection carries one upgrade (keep-alive
// is off), so the HTTP answers end at the 101.
type frameGuard struct {
	net.Conn
	limit int64

	mu      sync.Mutex
	head    []byte   // the HTTP answer read so far; nil once frames run
	aside   bool     // not an upgrade: nothing to check
	hdr     [14]byte // a frame header read so far
	hn      int
	left    uint64 // payload bytes of the current frame still to come
	refused *frameRefusal
}

// guardFrames wraps c; limit is the largest message accepted.
func guardFrames(c net.Conn, limit int) *frameGuard {
	return &frameGuard{Conn: c, limit: int64(limit), head: []byte{}}
}

// Read reads from the connection, up to the head of a refused frame.
func (g *frameGuard) Read(p []byte) (int, error) {
	g.mu.Lock()
	refused := g.refused
	g.mu.Unlock()
	if refused != nil {
		return 0, refused
	}
	n, err := g.Conn.Read(p)
	g.mu.Lock()
	defer g.mu.Unlock()
	if ok := g.inspect(p[:n]); ok < n {
		return ok, nil // the refusal is the next Read's error
	}
	return n, err
}

// inspect follows b through the HTTP answer and the frames after it and
// returns how many of its bytes precede a refused frame (len(b) when none).
func (g *frameGuard) inspect(b []byte) int {
	i := 0
	for i < len(b) && g.refused == nil && !g.aside {
		if g.head != nil {
			i += g.readHead(b[i:])
			continue
		}
		if g.left > 0 {
			step := uint64(len(b) - i)
			step = min(step, g.left)
			g.left -= step
			i += int(step)
			continue
		}
		start := i - g.hn // where this frame's header began, when in b
		g.hdr[g.hn] = b[i]
		g.hn++
		i++
		if g.hn == g.headerLen() {
			g.frame()
			if g.refused != nil {
				return max(start, 0)
			}
		}
	}
	return len(b)
}

// readHead reads b into the HTTP answer until the head ends and returns
// how many bytes it took: a 101 starts the frames, another 1xx a new head,
// anything else puts the guard aside.
func (g *frameGuard) readHead(b []byte) int {
	from := max(len(g.head)-2, 0)
	g.head = append(g.head, b...)
	end := headEnd(g.head, from)
	if end < 0 {
		if len(g.head) > headCap {
			g.aside, g.head = true, nil
		}
		return len(b)
	}
	took := len(b) - (len(g.head) - end)
	status := 0
	if _, code, ok := bytes.Cut(g.head, []byte(" ")); ok && len(code) >= 3 {
		status, _ = strconv.Atoi(string(code[:3]))
	}
	switch {
	case status == 101:
		g.head = nil
	case status >= 100 && status < 200:
		g.head = g.head[:0]
	default:
		g.aside, g.head = true, nil
	}
	return took
}

// headEnd returns where the HTTP head in b ends, looking from from on,
// or -1: after the first empty line, a line ending in "\r\n" or in a bare
// "\n" as net/http's reader takes it (textproto).
func headEnd(b []byte, from int) int {
	for i := from; i < len(b); i++ {
		if b[i] != '\n' {
			continue
		}
		rest := b[i+1:]
		switch {
		case len(rest) >= 1 && rest[0] == '\n':
			return i + 2
		case len(rest) >= 2 && rest[0] == '\r' && rest[1] == '\n':
			return i + 3
		}
	}
	return -1
}

// headerLen is the length of the frame header being read, as far as its
// first two bytes tell.
func (g *frameGuard) headerLen() int {
	if g.hn < 2 {
		return 2
	}
	n := 2
	switch g.hdr[1] & 0x7f {
	case 126:
		n += 2
	case 127:
		n += 8
	}
	if g.hdr[1]&0x80 != 0 {
		n += 4
	}
	return n
}

// frame checks the header read whole and starts its payload.
func (g *frameGuard) frame() {
	h := g.hdr[:g.hn]
	g.hn = 0
	size := uint64(h[1] & 0x7f)
	switch size {
	case 126:
		size = uint64(binary.BigEndian.Uint16(h[2:4]))
	case 127:
		size = binary.BigEndian.Uint64(h[2:10])
	}
	opcode := h[0] & 0x0f
	switch {
	case h[1]&0x80 != 0:
		g.refused = &frameRefusal{Code: websocket.StatusProtocolError, Wire: "masked frame from the server", Reason: "the server sent a masked frame (RFC 6455 §5.1: a server never masks, and a client closes the connection on one)"}
	case size>>63 != 0:
		g.refused = &frameRefusal{Code: websocket.StatusProtocolError, Wire: "payload length with its top bit set", Reason: "the server sent a frame whose 64-bit payload length has its most significant bit set (RFC 6455 §5.2: a protocol error)"}
	case opcode >= 8 && (size > 125 || h[0]&0x80 == 0):
		g.refused = &frameRefusal{Code: websocket.StatusProtocolError, Wire: "control frame too long or fragmented", Reason: "the server sent a control frame over 125 bytes or fragmented (RFC 6455 §5.5: a protocol error)"}
	case opcode < 8 && size > uint64(g.limit):
		g.refused = &frameRefusal{Code: websocket.StatusMessageTooBig, Wire: "message too big", Reason: fmt.Sprintf("the server sent a message over --max-frame-size (%d bytes)", g.limit)}
	}
	if g.refused != nil {
		g.refused.Head = fmt.Sprintf("a frame head: opcode %d, mask %t, %d bytes of payload", opcode, h[1]&0x80 != 0, size)
	}
	g.left = size
}
